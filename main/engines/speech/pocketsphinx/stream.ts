/**
 * A live pocketsphinx session. Audio is decoded as it arrives (partials are the decoder's running
 * best path); the caller ends utterances (voice-activity endpointing, Finalize, CloseStream).
 *
 * Cold start: a fresh (or reused) decoder's cepstral mean belongs to the model's prior or to the
 * previous speaker's microphone, and pocketsphinx only updates it at utterance ends, so the
 * session's first utterance decodes badly. The first `warmupSec` of sound is held back, its mean
 * cepstrum computed with the decoder's own front end and installed as the live CMN, and only then
 * decoded; the mean is refined every half second over the session's first `seedWindowSec`.
 * That costs at most `warmupSec` of delay on the session's first words.
 */
import type { RecognitionResult, SpeechStream } from '../../../services/transcriptions/ports.js';
import type { NativeDecoder } from './decoder.js';

export interface PocketsphinxStreamOptions {
  sampleRate: number;
  warmupSec: number;
  /** Seconds of session audio over which the seeded mean keeps being refined. Default 3. */
  seedWindowSec?: number;
  /** Gives the decoder back; `reusable` is false when it may be in a bad state. */
  release(reusable: boolean): void;
}

const SILENCE_PEAK = 100;
/** Give up seeding after this much silent audio and decode with whatever CMN the decoder has. */
const MAX_UNSEEDED_SEC = 10;

const EMPTY: RecognitionResult = { text: '', words: [], confidence: 0 };

function concat(parts: Int16Array[]): Int16Array {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Int16Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function isQuiet(pcm: Int16Array): boolean {
  for (let i = 0; i < pcm.length; i++) if (Math.abs(pcm[i]!) >= SILENCE_PEAK) return false;
  return true;
}

/** Wraps a decoder as a SpeechStream; the decoder is released by `close()`. */
export function createPocketsphinxStream(dec: NativeDecoder, options: PocketsphinxStreamOptions): SpeechStream {
  const { sampleRate } = options;
  const warmupSamples = Math.max(0, Math.floor(options.warmupSec * sampleRate));
  let pending: Int16Array[] = [];
  let pendingLen = 0;
  let seeded = warmupSamples === 0;
  let inUtt = false;
  let uttStart = 0; // session sample where the current utterance began
  let processed = 0; // session samples handed to the decoder
  let closed = false;
  let healthy = true;
  const seedWindow = Math.floor((options.seedWindowSec ?? 3) * sampleRate);
  const refineEvery = Math.floor(sampleRate / 2);
  let seedSum: Float64Array | null = null;
  let seedFrames = 0;
  let seedSamples = 0;
  let lastRefine = 0;

  /** Adds audio to the running cepstral mean and installs it (when `install`). */
  const accumulateSeed = (pcm: Int16Array, install: boolean): void => {
    const part = dec.cepstrumSum(pcm);
    seedSamples += pcm.length;
    if (!part) return;
    seedSum ??= new Float64Array(part.sum.length);
    for (let j = 0; j < part.sum.length; j++) seedSum[j] = seedSum[j]! + part.sum[j]!;
    seedFrames += part.frames;
    if (install && seedFrames > 0) {
      const mean = Float32Array.from(seedSum, (v) => v / seedFrames);
      if (mean.every(Number.isFinite)) dec.setCmn(mean);
    }
  };

  const decodeRaw = (pcm: Int16Array): void => {
    if (pcm.length === 0) return;
    if (!inUtt) {
      dec.startUtt();
      inUtt = true;
      uttStart = processed;
    }
    dec.process(pcm);
    processed += pcm.length;
  };

  const decodeNow = (pcm: Int16Array): void => {
    if (seeded && seedSamples > 0 && seedSamples < seedWindow) {
      const refine = seedSamples + pcm.length - lastRefine >= refineEvery;
      accumulateSeed(pcm, refine);
      if (refine) lastRefine = seedSamples;
    }
    decodeRaw(pcm);
  };

  const flushPending = (seed: boolean): void => {
    const all = concat(pending);
    pending = [];
    pendingLen = 0;
    if (seed) {
      seeded = true;
      accumulateSeed(all, true);
      lastRefine = seedSamples;
    }
    decodeRaw(all);
  };

  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      healthy = false;
      throw err;
    }
  };

  return {
    accept(pcm) {
      if (closed || pcm.length === 0) return;
      guard(() => {
        if (seeded) return decodeNow(pcm);
        pending.push(pcm.slice());
        pendingLen += pcm.length;
        if (pendingLen < warmupSamples) return;
        const all = concat(pending);
        if (isQuiet(all) && processed < MAX_UNSEEDED_SEC * sampleRate) flushPending(false);
        else flushPending(true);
      });
    },
    partial() {
      if (closed || !inUtt) return null;
      const r = guard(() => dec.result(uttStart / sampleRate, false));
      return r.words.length > 0 ? r : null;
    },
    finalizeUtterance() {
      if (closed) return EMPTY;
      return guard(() => {
        if (pendingLen > 0) flushPending(!isQuiet(concat(pending)));
        if (!inUtt) return EMPTY;
        dec.endUtt();
        inUtt = false;
        return dec.result(uttStart / sampleRate, true);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        if (inUtt) dec.endUtt();
      } catch {
        healthy = false;
      }
      options.release(healthy);
    },
  };
}
