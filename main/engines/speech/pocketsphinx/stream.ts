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

/** Where the session's utterance stands: the bookkeeping partials and finals read. */
interface Utterance {
  open: boolean;
  /** Session sample where the current utterance began. */
  start: number;
  /** Session samples handed to the decoder. */
  processed: number;
}

/**
 * The cold-start rule (see the top of the file): holds back the first `warmupSec` of sound, seeds
 * the live CMN from it, refines the mean over the first `seedWindowSec`. Cheap and synchronous: it
 * returns the audio the search must still run over, which the sync and async paths then hand over.
 */
function createWarmup(dec: NativeDecoder, options: PocketsphinxStreamOptions, utt: Utterance) {
  const { sampleRate } = options;
  const warmupSamples = Math.max(0, Math.floor(options.warmupSec * sampleRate));
  const seedWindow = Math.floor((options.seedWindowSec ?? 3) * sampleRate);
  const refineEvery = Math.floor(sampleRate / 2);
  let pending: Int16Array[] = [];
  let pendingLen = 0;
  let seeded = warmupSamples === 0;
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

  const decodeRaw = (pcm: Int16Array): Int16Array[] => {
    if (pcm.length === 0) return [];
    if (!utt.open) {
      dec.startUtt();
      utt.open = true;
      utt.start = utt.processed;
    }
    utt.processed += pcm.length;
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

  return {
    /** Takes a chunk in; returns the audio to search now (none while the warm-up is held back). */
    admit(pcm: Int16Array): Int16Array[] {
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
      return flushPending(!(isQuiet(all) && utt.processed < MAX_UNSEEDED_SEC * sampleRate));
    },
    /** Before an utterance ends: whatever warm-up audio is still held back gets decoded. */
    admitPending: (): Int16Array[] => (pendingLen > 0 ? flushPending(!isQuiet(concat(pending))) : []),
  };
}

/**
 * One native call at a time: async calls run one after another in call order, a synchronous call
 * is refused while one is pending, and any failure marks the decoder unhealthy (not to be reused).
 */
function createCallQueue() {
  let queue: Promise<unknown> = Promise.resolve();
  let inFlight = 0;
  const state = { healthy: true };
  const failed = (err: unknown): never => {
    state.healthy = false;
    throw err;
  };
  return {
    state,
    get idle() {
      return inFlight === 0;
    },
    /** Settles once every call queued so far has. */
    drained: (): Promise<unknown> => queue,
    /** A synchronous native call: refused while an async one is pending. */
    sync<T>(fn: () => T): T {
      if (inFlight > 0) throw new DomainError('internal', 'the speech stream is busy with an asynchronous call');
      try {
        return fn();
      } catch (err) {
        return failed(err);
      }
    },
    /** Runs `fn` after every earlier async call has settled. */
    async<T>(fn: () => Promise<T>): Promise<T> {
      inFlight++;
      const run = queue.then(() => fn().catch(failed)).finally(() => inFlight--);
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

/** Wraps a decoder as a SpeechStream; the decoder is released by `close()`. */
export function createPocketsphinxStream(dec: NativeDecoder, options: PocketsphinxStreamOptions): SpeechStream {
  const { sampleRate } = options;
  const utt: Utterance = { open: false, start: 0, processed: 0 };
  const warmup = createWarmup(dec, options, utt);
  const calls = createCallQueue();
  let closed = false;
  let released = false;

  const release = (): void => {
    if (released) return;
    released = true;
    options.release(calls.state.healthy);
  };
  return {
    accept(pcm) {
      if (closed || pcm.length === 0) return;
      calls.sync(() => {
        for (const part of warmup.admit(pcm)) dec.process(part);
      });
    },
    acceptAsync(pcm) {
      if (closed || pcm.length === 0) return Promise.resolve();
      return calls.async(async () => {
        if (closed) return;
        for (const part of warmup.admit(pcm)) await dec.processAsync(part);
      });
    },
    partial() {
      if (closed || !utt.open) return null;
      const r = calls.sync(() => dec.result(utt.start / sampleRate, false));
      return r.words.length > 0 ? r : null;
    },
    finalizeUtterance() {
      if (closed) return EMPTY;
      return calls.sync(() => {
        for (const part of warmup.admitPending()) dec.process(part);
        if (!utt.open) return EMPTY;
        dec.endUtt();
        utt.open = false;
        return dec.result(utt.start / sampleRate, true);
      });
    },
    finalizeUtteranceAsync() {
      if (closed) return Promise.resolve(EMPTY);
      return calls.async(async () => {
        if (closed) return EMPTY;
        for (const part of warmup.admitPending()) await dec.processAsync(part);
        if (!utt.open) return EMPTY;
        await dec.endUttAsync();
        utt.open = false;
        return dec.resultAsync(utt.start / sampleRate, true);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      if (calls.idle && !utt.open) return release();
      // The decoder goes back only once the pending call has finished with it; an open
      // utterance is ended off the event loop so a pooled decoder starts clean.
      void calls.drained()
        .then(async () => {
          if (utt.open) {
            utt.open = false;
            await dec.endUttAsync();
          }
        })
        .catch(() => {
          calls.state.healthy = false;
        })
        .finally(release);
    },
  };
}
