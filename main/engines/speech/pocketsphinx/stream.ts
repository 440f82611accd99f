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
 *
 * Threads: `acceptAsync` and `finalizeUtteranceAsync` run the native search on libuv's thread
 * pool, so several sessions decode in parallel and the event loop stays free. A decoder is not
 * re-entrant: the stream runs its async calls one after another, in call order, and refuses a
 * synchronous call while one is pending. `close()` waits for the pending call before the decoder
 * is given back.
 */
import { DomainError } from '../../../services/errors.js';
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
  let released = false;
  let healthy = true;
  const seedWindow = Math.floor((options.seedWindowSec ?? 3) * sampleRate);
  const refineEvery = Math.floor(sampleRate / 2);
  let seedSum: Float64Array | null = null;
  let seedFrames = 0;
  let seedSamples = 0;
  let lastRefine = 0;
  let queue: Promise<unknown> = Promise.resolve();
  let inFlight = 0;

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

  // The bookkeeping below (seeding, utterance start) is cheap and synchronous; it returns the
  // audio the search must still run over, which the sync and async paths then hand over.

  const decodeRaw = (pcm: Int16Array): Int16Array[] => {
    if (pcm.length === 0) return [];
    if (!inUtt) {
      dec.startUtt();
      inUtt = true;
      uttStart = processed;
    }
    processed += pcm.length;
    return [pcm];
  };

  const flushPending = (seed: boolean): Int16Array[] => {
    const all = concat(pending);
    pending = [];
    pendingLen = 0;
    if (seed) {
      seeded = true;
      accumulateSeed(all, true);
      lastRefine = seedSamples;
    }
    return decodeRaw(all);
  };

  /** Takes a chunk in; returns the audio to search now (none while the warm-up is held back). */
  const admit = (pcm: Int16Array): Int16Array[] => {
    if (seeded) {
      if (seedSamples > 0 && seedSamples < seedWindow) {
        const refine = seedSamples + pcm.length - lastRefine >= refineEvery;
        accumulateSeed(pcm, refine);
        if (refine) lastRefine = seedSamples;
      }
      return decodeRaw(pcm);
    }
    pending.push(pcm.slice());
    pendingLen += pcm.length;
    if (pendingLen < warmupSamples) return [];
    const all = concat(pending);
    return flushPending(!(isQuiet(all) && processed < MAX_UNSEEDED_SEC * sampleRate));
  };

  /** Before an utterance ends: whatever warm-up audio is still held back gets decoded. */
  const admitPending = (): Int16Array[] => (pendingLen > 0 ? flushPending(!isQuiet(concat(pending))) : []);

  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      healthy = false;
      throw err;
    }
  };

  const assertIdle = (): void => {
    if (inFlight > 0) throw new DomainError('internal', 'the speech stream is busy with an asynchronous call');
  };

  /** Runs `fn` after every earlier async call has settled: one native call at a time. */
  const enqueue = <T>(fn: () => Promise<T>): Promise<T> => {
    inFlight++;
    const run = queue.then(async () => {
      try {
        return await fn();
      } catch (err) {
        healthy = false;
        throw err;
      } finally {
        inFlight--;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const release = (): void => {
    if (released) return;
    released = true;
    options.release(healthy);
  };

  return {
    accept(pcm) {
      if (closed || pcm.length === 0) return;
      assertIdle();
      guard(() => {
        for (const part of admit(pcm)) dec.process(part);
      });
    },
    acceptAsync(pcm) {
      if (closed || pcm.length === 0) return Promise.resolve();
      return enqueue(async () => {
        if (closed) return;
        for (const part of admit(pcm)) await dec.processAsync(part);
      });
    },
    partial() {
      if (closed || !inUtt) return null;
      assertIdle();
      const r = guard(() => dec.result(uttStart / sampleRate, false));
      return r.words.length > 0 ? r : null;
    },
    finalizeUtterance() {
      if (closed) return EMPTY;
      assertIdle();
      return guard(() => {
        for (const part of admitPending()) dec.process(part);
        if (!inUtt) return EMPTY;
        dec.endUtt();
        inUtt = false;
        return dec.result(uttStart / sampleRate, true);
      });
    },
    finalizeUtteranceAsync() {
      if (closed) return Promise.resolve(EMPTY);
      return enqueue(async () => {
        if (closed) return EMPTY;
        for (const part of admitPending()) await dec.processAsync(part);
        if (!inUtt) return EMPTY;
        await dec.endUttAsync();
        inUtt = false;
        return dec.resultAsync(uttStart / sampleRate, true);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      if (inFlight === 0 && !inUtt) return release();
      // The decoder goes back only once the pending call has finished with it; an open
      // utterance is ended off the event loop so a pooled decoder starts clean.
      void queue
        .then(async () => {
          if (inUtt) {
            inUtt = false;
            await dec.endUttAsync();
          }
        })
        .catch(() => {
          healthy = false;
        })
        .finally(release);
    },
  };
}
