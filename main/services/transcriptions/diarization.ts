/**
 * Speaker diarization: who spoke when. Pure functions over PCM and speech segments that a
 * VoiceActivityDetector (port) found. Several channels: speaker n = channel n. One channel
 * (`diarizeMono`): 1.5 s windows inside the speech segments, each described by the mean and
 * standard deviation of 20 MFCCs (c0 dropped, the recording's mean cepstrum removed), z-scored;
 * average-linkage agglomerative clustering on cosine distance down to `numSpeakers`, or, when the
 * count is unknown, the cut with the best silhouette followed by merging clusters whose ΔBIC
 * (full-covariance Gaussians) says one voice fits better; k-means refinement; turns merged.
 * Also `assignSpeakers` (words to turns) and `diarizationErrorRate` (NIST-style DER).
 * docs/speech-models.md has the measured figures. `logMelSpectrogram` is exported for the ONNX
 * CTC recogniser, which feeds the same features to Conformer-CTC models.
 */
import type { DecodedAudio, RecognizedWord, SpeechSegment, VoiceActivityDetector } from './ports.js';

/** A stretch of speech by one speaker, seconds from the start of the audio. */
export interface SpeakerTurn { start: number; end: number; speaker: number }

export interface LogMelOptions {
  sampleRate?: number;
  /** Number of mel bands. Default 80. */
  nMels?: number;
  /** Window and hop in samples. Defaults 400 and 160 (25 ms, 10 ms at 16 kHz). */
  winLength?: number;
  hopLength?: number;
  /** FFT size (power of two >= winLength). Default 512. */
  nFft?: number;
  /** Pre-emphasis coefficient; 0 turns it off. Default 0.97. */
  preemphasis?: number;
  /** `htk` (default) or `slaney` (librosa's default, used by NeMo; area-normalised filters). */
  melScale?: 'htk' | 'slaney';
}

/** In-place radix-2 FFT of (re, im); length must be a power of two. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) [re[i], re[j], im[i], im[j]] = [re[j]!, re[i]!, im[j]!, im[i]!];
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}

const SLANEY_STEP = 200 / 3;
const SLANEY_LOG = Math.log(6.4) / 27;
const hzToMel = (hz: number, scale: 'htk' | 'slaney'): number =>
  scale === 'htk' ? 2595 * Math.log10(1 + hz / 700) : hz < 1000 ? hz / SLANEY_STEP : 15 + Math.log(hz / 1000) / SLANEY_LOG;
const melToHz = (mel: number, scale: 'htk' | 'slaney'): number =>
  scale === 'htk' ? 700 * (10 ** (mel / 2595) - 1) : mel < 15 ? mel * SLANEY_STEP : 1000 * Math.exp((mel - 15) * SLANEY_LOG);

/** Triangular mel filters over the FFT bins 0..nFft/2. */
function melFilters(nMels: number, nFft: number, sampleRate: number, scale: 'htk' | 'slaney'): Float64Array[] {
  const bins = nFft / 2 + 1;
  const maxMel = hzToMel(sampleRate / 2, scale);
  const points = Array.from({ length: nMels + 2 }, (_, i) => melToHz((maxMel * i) / (nMels + 1), scale));
  const binHz = sampleRate / nFft;
  return Array.from({ length: nMels }, (_, m) => {
    const f = new Float64Array(bins);
    const [lo, mid, hi] = [points[m]!, points[m + 1]!, points[m + 2]!];
    for (let b = 0; b < bins; b++) {
      const hz = b * binHz;
      if (hz > lo && hz < hi) f[b] = hz <= mid ? (hz - lo) / (mid - lo) : (hi - hz) / (hi - mid);
    }
    if (scale === 'slaney') f.forEach((v, b) => (f[b] = (v * 2) / (hi - lo)));
    return f;
  });
}

/**
 * Log-mel spectrogram of 16-bit PCM: one Float32Array of `nMels` values per 10 ms frame
 * (natural log of the band power, floored at 1e-10). Audio shorter than one window gives no frames.
 */
export function logMelSpectrogram(pcm: Int16Array, options: LogMelOptions = {}): Float32Array[] {
  const sampleRate = options.sampleRate ?? 16000;
  const nMels = options.nMels ?? 80;
  const win = options.winLength ?? 400;
  const hop = options.hopLength ?? 160;
  const nFft = options.nFft ?? 512;
  const pre = options.preemphasis ?? 0.97;
  const filters = melFilters(nMels, nFft, sampleRate, options.melScale ?? 'htk');
  const hann = Float64Array.from({ length: win }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / win));
  const frames: Float32Array[] = [];
  const re = new Float64Array(nFft);
  const im = new Float64Array(nFft);
  const power = new Float64Array(nFft / 2 + 1);
  for (let start = 0; start + win <= pcm.length; start += hop) {
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < win; i++) {
      const x = pcm[start + i]! / 32768;
      const prev = start + i > 0 ? pcm[start + i - 1]! / 32768 : 0;
      re[i] = (x - pre * prev) * hann[i]!;
    }
    fft(re, im);
    for (let b = 0; b < power.length; b++) power[b] = re[b]! * re[b]! + im[b]! * im[b]!;
    const frame = new Float32Array(nMels);
    filters.forEach((f, m) => {
      let e = 0;
      for (let b = 0; b < power.length; b++) if (f[b]) e += f[b]! * power[b]!;
      frame[m] = Math.log(Math.max(e, 1e-10));
    });
    frames.push(frame);
  }
  return frames;
}

/** DCT-II of log-mel frames: cepstral coefficients 1..nCeps (c0, the loudness, is left out). */
function mfcc(frames: Float32Array[], nCeps: number): Float64Array[] {
  const nMels = frames[0]?.length ?? 0;
  return frames.map((f) => {
    const c = new Float64Array(nCeps);
    for (let k = 1; k <= nCeps; k++) {
      let s = 0;
      for (let m = 0; m < nMels; m++) s += f[m]! * Math.cos((Math.PI * k * (m + 0.5)) / nMels);
      c[k - 1] = s;
    }
    return c;
  });
}

export interface MonoDiarizationOptions {
  /** Exact number of speakers when the caller knows it (a two-person encounter). */
  numSpeakers?: number;
  /** Upper bound when estimating. Default 4. */
  maxSpeakers?: number;
  /** Least mean silhouette for more than one speaker when estimating. Default 0.12 (see scripts/eval-diarization.ts). */
  threshold?: number;
  /** Weight of the model-size penalty in the ΔBIC check that merges clusters of one voice. Default 3 (see scripts/eval-diarization.ts). */
  bicPenalty?: number;
  /** Window length in seconds. Default 1.5. */
  windowSec?: number;
}

const cosineDistance = (a: Float64Array, b: Float64Array): number => {
  let [dot, na, nb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) [dot, na, nb] = [dot + a[i]! * b[i]!, na + a[i]! * a[i]!, nb + b[i]! * b[i]!];
  return 1 - dot / (Math.sqrt(na * nb) || 1);
};

/**
 * Average-linkage agglomerative clustering on a distance matrix. Returns the labels of every cut
 * from `maxK` clusters down to 1 (index k-1 holds the cut with k clusters).
 */
function agglomerate(dist: number[][], maxK: number): number[][] {
  const n = dist.length;
  let clusters: number[][] = dist.map((_, i) => [i]);
  const cuts: number[][] = [];
  const linkage = (a: number[], b: number[]): number => {
    let s = 0;
    for (const i of a) for (const j of b) s += dist[i]![j]!;
    return s / (a.length * b.length);
  };
  const record = (): void => {
    const labels = new Array<number>(n).fill(0);
    clusters.forEach((c, ci) => c.forEach((i) => (labels[i] = ci)));
    cuts[clusters.length - 1] = labels;
  };
  if (clusters.length <= maxK) record();
  while (clusters.length > 1) {
    let best = Infinity;
    let pair: [number, number] = [0, 1];
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const d = linkage(clusters[i]!, clusters[j]!);
        if (d < best) [best, pair] = [d, [i, j]];
      }
    }
    clusters[pair[0]] = [...clusters[pair[0]]!, ...clusters[pair[1]]!];
    clusters = clusters.filter((_, i) => i !== pair[1]);
    if (clusters.length <= maxK) record();
  }
  return cuts;
}

/** Mean silhouette of a labelling (-1 to 1; higher = tighter, better separated clusters). */
function silhouette(dist: number[][], labels: number[]): number {
  const k = Math.max(...labels) + 1;
  if (k < 2) return 0;
  let sum = 0;
  labels.forEach((li, i) => {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    labels.forEach((lj, j) => {
      if (i === j) return;
      sums[lj]! += dist[i]![j]!;
      counts[lj]!++;
    });
    if (counts[li] === 0) return; // a singleton scores 0
    const a = sums[li]! / counts[li]!;
    const b = Math.min(...sums.map((sv, c) => (c === li || counts[c] === 0 ? Infinity : sv / counts[c]!)));
    sum += (b - a) / Math.max(a, b);
  });
  return sum / labels.length;
}

/** log-determinant of the covariance of `frames` (Cholesky; a tiny ridge keeps it defined). */
function logDetCovariance(frames: Float64Array[]): number {
  const d = frames[0]!.length;
  const n = frames.length;
  const mean = new Float64Array(d);
  for (const f of frames) for (let i = 0; i < d; i++) mean[i]! += f[i]! / n;
  const c = Array.from({ length: d }, () => new Float64Array(d));
  for (const f of frames) {
    for (let i = 0; i < d; i++) {
      const di = f[i]! - mean[i]!;
      for (let j = 0; j <= i; j++) c[i]![j]! += (di * (f[j]! - mean[j]!)) / n;
    }
  }
  let logDet = 0;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = c[i]![j]!;
      for (let k = 0; k < j; k++) sum -= c[i]![k]! * c[j]![k]!;
      if (i === j) {
        const v = Math.sqrt(Math.max(sum, 0) + 1e-6);
        c[i]![i] = v;
        logDet += 2 * Math.log(v);
      } else c[i]![j] = sum / c[j]![j]!;
    }
  }
  return logDet;
}

/**
 * ΔBIC between modelling two frame sets with one full-covariance Gaussian or with two: positive
 * means two voices explain the frames better than one, after the penalty for the extra model.
 */
function deltaBic(a: Float64Array[], b: Float64Array[], lambda: number): number {
  const d = a[0]!.length;
  const n = a.length + b.length;
  const penalty = 0.5 * lambda * (d + (d * (d + 1)) / 2) * Math.log(n);
  return 0.5 * (n * logDetCovariance([...a, ...b]) - a.length * logDetCovariance(a) - b.length * logDetCovariance(b)) - penalty;
}

/** A few k-means passes (cosine) from the agglomerative clusters' centroids. */
function refine(x: Float64Array[], labels: number[], k: number): number[] {
  let current = labels;
  for (let pass = 0; pass < 5; pass++) {
    const centroids = Array.from({ length: k }, () => new Float64Array(x[0]!.length));
    const counts = new Array<number>(k).fill(0);
    x.forEach((v, i) => {
      counts[current[i]!]!++;
      v.forEach((val, d) => (centroids[current[i]!]![d]! += val));
    });
    const next = x.map((v, i) => {
      let [best, bestD] = [current[i]!, Infinity];
      centroids.forEach((c, ci) => {
        const d = counts[ci] === 0 ? Infinity : cosineDistance(v, c);
        if (d < bestD) [bestD, best] = [d, ci];
      });
      return best;
    });
    if (next.every((l, i) => l === current[i])) break;
    current = next;
  }
  return current;
}

/** Windows of about `windowSec` inside each speech segment. */
function windows(segments: SpeechSegment[], windowSec: number): SpeechSegment[] {
  const out: SpeechSegment[] = [];
  for (const s of segments) {
    const len = s.end - s.start;
    if (len <= 0) continue;
    const n = Math.max(1, Math.round(len / windowSec));
    for (let i = 0; i < n; i++) out.push({ start: s.start + (len * i) / n, end: s.start + (len * (i + 1)) / n });
  }
  return out;
}

/** Diarizes one mono recording from its speech segments (method: module comment); speakers numbered by first appearance. */
export function diarizeMono(pcm: Int16Array, sampleRate: number, segments: SpeechSegment[], options: MonoDiarizationOptions = {}): SpeakerTurn[] {
  const wins = windows(segments, options.windowSec ?? 1.5);
  if (wins.length === 0) return [];
  const frames = mfcc(logMelSpectrogram(pcm, { sampleRate, nMels: 40, winLength: Math.round(sampleRate * 0.025), hopLength: Math.round(sampleRate * 0.01) }), 20);
  const hopSec = Math.round(sampleRate * 0.01) / sampleRate;
  // Cepstral mean over the speech only: removes the microphone and room, keeps the voice.
  const dims = 20;
  const mean = new Float64Array(dims);
  let count = 0;
  const framesOf = (w: SpeechSegment): Float64Array[] => frames.slice(Math.floor(w.start / hopSec), Math.max(Math.floor(w.start / hopSec) + 1, Math.floor(w.end / hopSec)));
  for (const w of wins) for (const f of framesOf(w)) { f.forEach((v, d) => (mean[d]! += v)); count++; }
  mean.forEach((v, d) => (mean[d] = v / Math.max(count, 1)));
  const embeddings = wins.map((w) => {
    const fs = framesOf(w);
    const e = new Float64Array(dims * 2);
    if (fs.length === 0) return e;
    for (const f of fs) for (let d = 0; d < dims; d++) e[d]! += (f[d]! - mean[d]!) / fs.length;
    for (const f of fs) for (let d = 0; d < dims; d++) e[dims + d]! += (f[d]! - mean[d]! - e[d]!) ** 2 / fs.length;
    for (let d = 0; d < dims; d++) e[dims + d] = Math.sqrt(e[dims + d]!);
    return e;
  });
  // z-score each dimension so no single coefficient dominates the distance.
  for (let d = 0; d < dims * 2; d++) {
    const m = embeddings.reduce((s, e) => s + e[d]!, 0) / embeddings.length;
    const sd = Math.sqrt(embeddings.reduce((s, e) => s + (e[d]! - m) ** 2, 0) / embeddings.length) || 1;
    for (const e of embeddings) e[d] = (e[d]! - m) / sd;
  }
  const maxK = Math.min(options.maxSpeakers ?? 4, embeddings.length);
  const k = options.numSpeakers === undefined ? undefined : Math.max(1, Math.min(options.numSpeakers, embeddings.length));
  const dist = embeddings.map((a) => embeddings.map((b) => cosineDistance(a, b)));
  const cuts = agglomerate(dist, Math.max(maxK, k ?? 1));
  let labels: number[];
  if (k !== undefined) labels = cuts[k - 1]!;
  else {
    // The cut with the best silhouette, unless even that one is too weak to call it two voices.
    let bestK = 1;
    let bestS = options.threshold ?? 0.12;
    for (let c = 2; c <= maxK; c++) {
      const sc = silhouette(dist, cuts[c - 1]!);
      if (sc > bestS) [bestS, bestK] = [sc, c];
    }
    labels = mergeByBic(cuts[bestK - 1]!, wins.map((w) => framesOf(w).map((f) => f.map((v, d) => v - mean[d]!))), options.bicPenalty ?? 3);
  }
  const nClusters = Math.max(...labels) + 1;
  if (nClusters > 1) labels = refine(embeddings, labels, nClusters);
  return mergeTurns(wins.map((w, i) => ({ ...w, speaker: labels[i]! })));
}

/** Merges the pair of clusters with the lowest ΔBIC while it is negative (one voice after all). */
function mergeByBic(labels: number[], windowFrames: Float64Array[][], lambda: number): number[] {
  let current = [...labels];
  for (;;) {
    const ids = [...new Set(current)];
    if (ids.length < 2) return current;
    const framesOf = (id: number): Float64Array[] => current.flatMap((l, i) => (l === id ? windowFrames[i]! : []));
    let best = Infinity;
    let pair: [number, number] = [ids[0]!, ids[1]!];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = framesOf(ids[i]!);
        const b = framesOf(ids[j]!);
        const v = a.length > 21 && b.length > 21 ? deltaBic(a, b, lambda) : -Infinity;
        if (v < best) [best, pair] = [v, [ids[i]!, ids[j]!]];
      }
    }
    if (best >= 0) return current;
    current = current.map((l) => (l === pair[1] ? pair[0] : l));
  }
}

/** Renumbers speakers by first appearance and joins touching turns of one speaker. */
function mergeTurns(turns: SpeakerTurn[]): SpeakerTurn[] {
  const sorted = [...turns].sort((a, b) => a.start - b.start);
  const rename = new Map<number, number>();
  const out: SpeakerTurn[] = [];
  for (const t of sorted) {
    if (!rename.has(t.speaker)) rename.set(t.speaker, rename.size);
    const speaker = rename.get(t.speaker)!;
    const last = out[out.length - 1];
    if (last && last.speaker === speaker && t.start - last.end < 0.05) last.end = Math.max(last.end, t.end);
    else out.push({ start: t.start, end: t.end, speaker });
  }
  return out;
}

/** Multichannel diarization: speaker n is channel n, whose VAD segments are `segmentsPerChannel[n]`; turns may overlap. */
export function diarizeChannels(segmentsPerChannel: SpeechSegment[][]): SpeakerTurn[] {
  return segmentsPerChannel
    .flatMap((segs, speaker) => segs.map((s) => ({ start: s.start, end: s.end, speaker })))
    .sort((a, b) => a.start - b.start || a.speaker - b.speaker);
}

/** True when every channel carries (nearly) the same signal: a mono recording saved as stereo. */
function channelsAlike(channels: Int16Array[]): boolean {
  const first = channels[0]!;
  let [energy, diff] = [0, 0];
  for (const ch of channels.slice(1)) {
    for (let i = 0; i < first.length; i += 4) {
      energy += first[i]! * first[i]!;
      diff += (first[i]! - (ch[i] ?? 0)) ** 2;
    }
  }
  return diff <= energy * 0.01;
}

/**
 * Diarizes decoded audio, asking `vad` for speech segments: a speaker per channel when the audio
 * has several channels that differ, otherwise `diarizeMono` on the (first) channel. Channels that
 * carry the same signal count as mono, so a stereo copy of one microphone is not two speakers.
 */
export async function diarize(audio: DecodedAudio, vad: VoiceActivityDetector, options: MonoDiarizationOptions = {}): Promise<SpeakerTurn[]> {
  const { channels, sampleRate } = audio;
  if (channels.length === 0) return [];
  if (channels.length > 1 && !channelsAlike(channels)) {
    const perChannel = await Promise.all(channels.map((ch) => vad.segments(ch, sampleRate)));
    return diarizeChannels(perChannel);
  }
  return diarizeMono(channels[0]!, sampleRate, await vad.segments(channels[0]!, sampleRate), options);
}

/**
 * Gives each word the speaker whose turn overlaps it most; a word in no turn takes the nearest
 * turn's speaker. With no turns every word is speaker 0.
 */
export function assignSpeakers<W extends RecognizedWord>(words: W[], turns: SpeakerTurn[]): Array<W & { speaker: number }> {
  return words.map((w) => {
    let best: SpeakerTurn | undefined;
    let bestScore = -Infinity;
    for (const t of turns) {
      const overlap = Math.min(w.end, t.end) - Math.max(w.start, t.start);
      // Negative overlap is the gap to the turn, so the nearest turn wins when none overlaps.
      if (overlap > bestScore) [bestScore, best] = [overlap, t];
    }
    return { ...w, speaker: best?.speaker ?? 0 };
  });
}

/** `der` = (missed + falseAlarm + confusion) / total (0 without reference speech); the rest in seconds. */
export interface DerBreakdown { der: number; missed: number; falseAlarm: number; confusion: number; total: number }

/**
 * Diarization error rate, NIST-style, on a 10 ms grid: the hypothesis speakers are mapped to the
 * reference speakers by the one-to-one mapping with the most overlap, and `collar` seconds
 * (default 0.25) either side of every reference boundary are not scored. Overlapped reference
 * speech counts each speaker.
 */
export function diarizationErrorRate(reference: SpeakerTurn[], hypothesis: SpeakerTurn[], options: { collar?: number } = {}): DerBreakdown {
  const step = 0.01;
  const collar = options.collar ?? 0.25;
  const endT = Math.max(0, ...reference.map((t) => t.end), ...hypothesis.map((t) => t.end));
  const n = Math.ceil(endT / step);
  const active = (turns: SpeakerTurn[], t: number): number[] => [...new Set(turns.filter((x) => t >= x.start && t < x.end).map((x) => x.speaker))];
  const scored = (t: number): boolean => !reference.some((r) => Math.abs(t - r.start) < collar || Math.abs(t - r.end) < collar);
  const refIds = [...new Set(reference.map((t) => t.speaker))];
  const hypIds = [...new Set(hypothesis.map((t) => t.speaker))];
  const frames: Array<{ ref: number[]; hyp: number[] }> = [];
  const overlap = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) * step;
    if (!scored(t)) continue;
    const f = { ref: active(reference, t), hyp: active(hypothesis, t) };
    frames.push(f);
    for (const r of f.ref) for (const h of f.hyp) overlap.set(`${h}:${r}`, (overlap.get(`${h}:${r}`) ?? 0) + 1);
  }
  const mapping = bestMapping(hypIds, refIds, (h, r) => overlap.get(`${h}:${r}`) ?? 0);
  let [missed, falseAlarm, confusion, total] = [0, 0, 0, 0];
  for (const f of frames) {
    const nr = f.ref.length;
    const nh = f.hyp.length;
    const correct = f.hyp.filter((h) => mapping.has(h) && f.ref.includes(mapping.get(h)!)).length;
    total += nr;
    missed += Math.max(0, nr - nh);
    falseAlarm += Math.max(0, nh - nr);
    confusion += Math.min(nr, nh) - correct;
  }
  const s = (x: number): number => x * step;
  return { der: total ? (missed + falseAlarm + confusion) / total : 0, missed: s(missed), falseAlarm: s(falseAlarm), confusion: s(confusion), total: s(total) };
}

/** One-to-one mapping with the most total score: exhaustive for up to 7 hypothesis speakers, greedy beyond. */
function bestMapping(hyp: number[], ref: number[], score: (h: number, r: number) => number): Map<number, number> {
  if (hyp.length > 7) {
    const m = new Map<number, number>();
    const pairs = hyp.flatMap((h) => ref.map((r) => ({ h, r, s: score(h, r) }))).sort((a, b) => b.s - a.s);
    for (const p of pairs) if (!m.has(p.h) && ![...m.values()].includes(p.r)) m.set(p.h, p.r);
    return m;
  }
  let best = new Map<number, number>();
  let bestScore = -1;
  const walk = (i: number, used: Set<number>, current: Map<number, number>, sc: number): void => {
    if (i === hyp.length) {
      if (sc > bestScore) [bestScore, best] = [sc, new Map(current)];
      return;
    }
    walk(i + 1, used, current, sc); // this hypothesis speaker maps to no one
    for (const r of ref) {
      if (used.has(r)) continue;
      used.add(r);
      current.set(hyp[i]!, r);
      walk(i + 1, used, current, sc + score(hyp[i]!, r));
      current.delete(hyp[i]!);
      used.delete(r);
    }
  };
  walk(0, new Set(), new Map(), 0);
  return best;
}
