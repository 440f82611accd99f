/**
 * An energy voice activity detector: 30 ms frames whose log energy rises above a level set
 * between the clip's quiet (10th percentile) and loud (90th percentile) frames. It needs no model
 * and does not care about bandwidth or codec, which is where Silero struggles (8 kHz radio speech
 * in Debian's codec2-examples: Silero finds under half of it). It cannot tell speech from other
 * loud sounds, so it is a partner for Silero (see robust-vad.ts), not a replacement.
 */
import type { SpeechSegment, VoiceActivityDetector } from '../../services/transcriptions/ports.js';

export interface EnergyVadOptions {
  /** Frame length, ms. Default 30. */
  frameMs?: number;
  /** Position of the threshold between the quiet and loud percentiles, 0 to 1. Default 0.35. */
  level?: number;
  /** Silence that ends a segment, seconds. Default 0.25. */
  minSilenceSec?: number;
  /** Shortest segment kept, seconds. Default 0.3. */
  minSpeechSec?: number;
}

/** Energy profile of a clip: per-frame level in dB and the percentiles the threshold comes from. */
export interface EnergyProfile {
  frameSec: number;
  db: Float64Array;
  /** 10th and 90th percentile frame levels, dB. */
  quiet: number;
  loud: number;
}

/** Per-frame energy in dB (of 16-bit sample units) with the clip's quiet and loud percentiles. */
export function energyProfile(pcm: Int16Array, sampleRate: number, frameMs = 30): EnergyProfile {
  const frame = Math.max(1, Math.round((sampleRate * frameMs) / 1000));
  const n = Math.floor(pcm.length / frame);
  const db = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let e = 0;
    for (let j = k * frame; j < (k + 1) * frame; j++) e += pcm[j]! * pcm[j]!;
    db[k] = 10 * Math.log10(e / frame + 1);
  }
  const sorted = Float64Array.from(db).sort();
  return { frameSec: frame / sampleRate, db, quiet: sorted[Math.floor(n * 0.1)] ?? 0, loud: sorted[Math.floor(n * 0.9)] ?? 0 };
}

/** Speech segments of a clip by frame energy (pure; see `createEnergyVad`). */
export function energySegments(pcm: Int16Array, sampleRate: number, options: EnergyVadOptions = {}): SpeechSegment[] {
  const minSilence = options.minSilenceSec ?? 0.25;
  const minSpeech = options.minSpeechSec ?? 0.3;
  const { frameSec, db, quiet, loud } = energyProfile(pcm, sampleRate, options.frameMs ?? 30);
  const threshold = quiet + (loud - quiet) * (options.level ?? 0.35);
  const segs: SpeechSegment[] = [];
  let start = -1;
  let lastSpeech = -1;
  for (let k = 0; k < db.length; k++) {
    const t = k * frameSec;
    if (db[k]! > threshold) {
      if (start < 0) start = t;
      lastSpeech = t + frameSec;
    } else if (start >= 0 && t - lastSpeech > minSilence) {
      if (lastSpeech - start >= minSpeech) segs.push({ start, end: lastSpeech });
      start = -1;
    }
  }
  if (start >= 0 && lastSpeech - start >= minSpeech) segs.push({ start, end: lastSpeech });
  return segs.map((s) => ({ start: Math.round(s.start * 1000) / 1000, end: Math.round(s.end * 1000) / 1000 }));
}

/** The energy detector behind the VoiceActivityDetector port. */
export function createEnergyVad(options: EnergyVadOptions = {}): VoiceActivityDetector {
  return { segments: async (pcm, sampleRate) => energySegments(pcm, sampleRate, options) };
}
