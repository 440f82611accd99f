/**
 * Cuts a clip into utterances for batch decoding. pocketsphinx decodes best on utterance-sized
 * pieces (its CMN is per utterance and its search grows with length), so long recordings are split
 * at pauses: voice-activity segments when a detector is available, the quietest 100 ms otherwise.
 */
import type { VoiceActivityDetector } from '../../../services/transcriptions/ports.js';

export interface UtterancePlan {
  startSample: number;
  endSample: number;
}

/** Peak below which a clip counts as silence (about -50 dBFS). */
const SILENCE_PEAK = 100;

function peak(pcm: Int16Array, from = 0, to = pcm.length): number {
  let p = 0;
  for (let i = from; i < to; i++) {
    const v = Math.abs(pcm[i]!);
    if (v > p) p = v;
  }
  return p;
}

/** Start of the quietest `win`-sample window in [from, to). */
function quietestPoint(pcm: Int16Array, from: number, to: number, win: number): number {
  let best = from;
  let bestEnergy = Number.POSITIVE_INFINITY;
  for (let s = from; s + win <= to; s += win / 2) {
    let e = 0;
    for (let i = s; i < s + win; i++) e += pcm[i]! * pcm[i]!;
    if (e < bestEnergy) {
      bestEnergy = e;
      best = s + win / 2;
    }
  }
  return Math.floor(best);
}

/** Splits [start, end) into pieces no longer than `maxLen`, cutting at quiet points. */
function splitLong(pcm: Int16Array, start: number, end: number, maxLen: number, win: number): UtterancePlan[] {
  const out: UtterancePlan[] = [];
  let s = start;
  while (end - s > maxLen) {
    const cut = quietestPoint(pcm, s + Math.floor(maxLen / 2), s + maxLen, win);
    out.push({ startSample: s, endSample: cut });
    s = cut;
  }
  if (end > s) out.push({ startSample: s, endSample: end });
  return out;
}

/**
 * Plans the utterances of a clip. Silence yields no utterances (so the transcript is empty).
 */
export async function planUtterances(
  pcm: Int16Array,
  sampleRate: number,
  options: { maxSec: number; vad?: VoiceActivityDetector; padSec?: number; joinGapSec?: number },
): Promise<UtterancePlan[]> {
  if (pcm.length === 0 || peak(pcm) < SILENCE_PEAK) return [];
  const maxLen = Math.floor(options.maxSec * sampleRate);
  const win = Math.floor(sampleRate / 10);
  if (!options.vad) return splitLong(pcm, 0, pcm.length, maxLen, win);

  const pad = Math.floor((options.padSec ?? 0.25) * sampleRate);
  const joinGap = Math.floor((options.joinGapSec ?? 0.5) * sampleRate);
  const segments = await options.vad.segments(pcm, sampleRate);
  const merged: UtterancePlan[] = [];
  for (const seg of segments) {
    const s = Math.max(0, Math.floor(seg.start * sampleRate) - pad);
    const e = Math.min(pcm.length, Math.ceil(seg.end * sampleRate) + pad);
    const last = merged[merged.length - 1];
    // Join close segments while the result stays short: context helps the language model.
    if (last && s - last.endSample < joinGap && e - last.startSample <= maxLen) last.endSample = Math.max(last.endSample, e);
    else if (last && s < last.endSample) last.endSample = Math.max(last.endSample, e);
    else merged.push({ startSample: s, endSample: e });
  }
  return merged.flatMap((m) => splitLong(pcm, m.startSample, m.endSample, maxLen, win));
}
