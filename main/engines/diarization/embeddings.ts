/**
 * Voice embeddings of speech windows: each window is described by the mean and standard deviation
 * of 20 MFCCs (c0 dropped) after the recording's mean cepstrum over speech is removed, then every
 * dimension is z-scored across windows.
 */
import type { SpeechSegment } from '../../services/transcriptions/ports.js';
import { logMelSpectrogram, mfcc } from './log-mel.js';

/** Cepstral coefficients per frame (c1..c20). */
const DIMS = 20;

/** Windows of about `windowSec` inside each speech segment (a short segment is one window). */
export function speechWindows(segments: SpeechSegment[], windowSec: number): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  for (const s of segments) {
    const len = s.end - s.start;
    if (len <= 0) continue;
    const n = Math.max(1, Math.round(len / windowSec));
    for (let i = 0; i < n; i++) out.push({ start: s.start + (len * i) / n, end: s.start + (len * (i + 1)) / n });
  }
  return out;
}

export interface WindowFeatures {
  /** One vector of 2 x 20 values per window (MFCC means, then standard deviations), z-scored. */
  embeddings: Float64Array[];
  /** Each window's MFCC frames with the speech mean removed (what the ΔBIC check models). */
  centredFrames(): Float64Array[][];
}

/** Features of `windows` of one recording (25 ms frames every 10 ms, 40 mel bands). */
export function windowFeatures(pcm: Int16Array, sampleRate: number, windows: SpeechSegment[]): WindowFeatures {
  const hop = Math.round(sampleRate * 0.01);
  const frames = mfcc(logMelSpectrogram(pcm, { sampleRate, nMels: 40, winLength: Math.round(sampleRate * 0.025), hopLength: hop }), DIMS);
  const hopSec = hop / sampleRate;
  const framesOf = (w: SpeechSegment): Float64Array[] =>
    frames.slice(Math.floor(w.start / hopSec), Math.max(Math.floor(w.start / hopSec) + 1, Math.floor(w.end / hopSec)));
  // Cepstral mean over the speech only: removes the microphone and room, keeps the voice.
  const mean = new Float64Array(DIMS);
  let count = 0;
  for (const w of windows) for (const f of framesOf(w)) { f.forEach((v, d) => (mean[d]! += v)); count++; }
  mean.forEach((v, d) => (mean[d] = v / Math.max(count, 1)));
  const embeddings = windows.map((w) => {
    const fs = framesOf(w);
    const e = new Float64Array(DIMS * 2);
    if (fs.length === 0) return e;
    for (const f of fs) for (let d = 0; d < DIMS; d++) e[d]! += (f[d]! - mean[d]!) / fs.length;
    for (const f of fs) for (let d = 0; d < DIMS; d++) e[DIMS + d]! += (f[d]! - mean[d]! - e[d]!) ** 2 / fs.length;
    for (let d = 0; d < DIMS; d++) e[DIMS + d] = Math.sqrt(e[DIMS + d]!);
    return e;
  });
  // z-score each dimension so no single coefficient dominates the distance.
  for (let d = 0; d < DIMS * 2; d++) {
    const m = embeddings.reduce((s, e) => s + e[d]!, 0) / embeddings.length;
    const sd = Math.sqrt(embeddings.reduce((s, e) => s + (e[d]! - m) ** 2, 0) / embeddings.length) || 1;
    for (const e of embeddings) e[d] = (e[d]! - m) / sd;
  }
  return {
    embeddings,
    centredFrames: () => windows.map((w) => framesOf(w).map((f) => f.map((v, d) => v - mean[d]!))),
  };
}
