/**
 * A voice activity detector that does not lose speech the model fails to hear. Silero VAD is
 * precise on wide-band microphone speech but hears little of narrow-band or codec-processed speech
 * (8 kHz radio recordings in Debian's codec2-examples: 0 of 30 s for one speaker). Losing speech
 * there costs twice: the recogniser never decodes it and diarization scores it as missed
 * (DER 64% with Silero alone against 3% with energy segments, scripts/eval-diarization.ts).
 *
 * Method: run the model and an energy detector. When the clip has a clear loud/quiet contrast
 * (the energy detector is meaningful) and the model's segments cover less than `minCoverage` of
 * the loud stretches, the model is missing speech, so the answer is the union of both; otherwise
 * the model's segments stand, so coughs and bangs in a clip the model handles well stay out.
 */
import type { SpeechSegment, VoiceActivityDetector } from '../../services/transcriptions/ports.js';
import { energyProfile, energySegments, type EnergyVadOptions } from './energy-vad.js';

export interface RobustVadOptions {
  /** Model-based detector (Silero). */
  model: VoiceActivityDetector;
  /** Options of the energy detector. */
  energy?: EnergyVadOptions;
  /**
   * Share of the energy detector's speech that the model must cover for its segments to be used
   * alone, 0 to 1. Set from config `CLINDOC_VAD_MIN_COVERAGE` by the composition; default 0.8.
   */
  minCoverage?: number;
  /**
   * Loud (90th percentile) minus quiet (10th percentile) frame level, dB, below which the energy
   * detector is not trusted (steady noise, silence). Default 10.
   */
  minContrastDb?: number;
}

const total = (segs: SpeechSegment[]): number => segs.reduce((s, x) => s + (x.end - x.start), 0);

/** Seconds of `a` that lie inside `b` (both sorted, non-overlapping within themselves). */
export function overlapSeconds(a: SpeechSegment[], b: SpeechSegment[]): number {
  let sum = 0;
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j]!.end <= x.start) j++;
    for (let k = j; k < b.length && b[k]!.start < x.end; k++) sum += Math.min(x.end, b[k]!.end) - Math.max(x.start, b[k]!.start);
  }
  return sum;
}

/** Sorted union of two segment lists, touching or overlapping segments merged. */
export function unionSegments(a: SpeechSegment[], b: SpeechSegment[]): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  for (const s of [...a, ...b].sort((x, y) => x.start - y.start)) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** What the robust detector decided for one clip (for scripts and tests). */
export interface RobustVadDecision {
  segments: SpeechSegment[];
  /** `model`: the model's segments alone; `union`: model plus energy segments. */
  source: 'model' | 'union';
  /** Share of the energy detector's speech covered by the model (1 when there is none). */
  coverage: number;
  contrastDb: number;
}

export type RobustVad = VoiceActivityDetector & { decide(pcm: Int16Array, sampleRate: number): Promise<RobustVadDecision> };

/** Creates the model + energy detector described above. */
export function createRobustVad(options: RobustVadOptions): RobustVad {
  const minCoverage = options.minCoverage ?? 0.8;
  const minContrast = options.minContrastDb ?? 10;
  const decide = async (pcm: Int16Array, sampleRate: number): Promise<RobustVadDecision> => {
    const model = await options.model.segments(pcm, sampleRate);
    const profile = energyProfile(pcm, sampleRate, options.energy?.frameMs ?? 30);
    const contrastDb = profile.loud - profile.quiet;
    if (contrastDb < minContrast) return { segments: model, source: 'model', coverage: 1, contrastDb };
    const energy = energySegments(pcm, sampleRate, options.energy);
    const loud = total(energy);
    const coverage = loud > 0 ? overlapSeconds(energy, model) / loud : 1;
    if (coverage >= minCoverage) return { segments: model, source: 'model', coverage, contrastDb };
    return { segments: unionSegments(model, energy), source: 'union', coverage, contrastDb };
  };
  return { decide, segments: async (pcm, sampleRate) => (await decide(pcm, sampleRate)).segments };
}
