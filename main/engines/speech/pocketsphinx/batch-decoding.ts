/**
 * Batch recognition on every recogniser thread: a clip is cut at pauses into utterances
 * (segmenter.ts), the utterances are decoded in parallel on a small set of batch decoders (one per
 * thread; native decoders are not re-entrant, so each decodes one utterance at a time), and the
 * words are stitched back in utterance order, each word's times offset by its utterance's start.
 * Several clips (concurrent uploads) share the same decoders, first come first served.
 *
 * Each utterance is fed in short calls (`chunkSec` of audio, a fraction of a second of CPU each)
 * rather than one call for the whole utterance, so a live session waiting for a thread waits for
 * one short call at most (the policy in work-scheduler.ts decides who goes next). Chunked calls
 * use pocketsphinx's running cepstral mean instead of its whole-utterance mean; seeding it with
 * the utterance's own mean (computed as sphinxbase does) gives the same words. One case differs:
 * the running mean leaves frames of digital silence (zero energy) unnormalised where the
 * whole-utterance mean normalises them, which cost words on espeak-ng speech padded with exact
 * zeros. Such an utterance gets one bit of deterministic dither (as a microphone's noise floor
 * would give it), so no frame has zero energy; a decoder cannot go back to the whole-utterance
 * mean once it has run short calls, so every utterance goes the same way.
 */
import type { RecognitionResult, RecognizedWord, VoiceActivityDetector } from '../../../services/transcriptions/ports.js';
import type { NativeDecoder } from './decoder.js';
import { planUtterances, type UtterancePlan } from './segmenter.js';

export interface BatchDecodingOptions {
  /** Makes a batch decoder (batch search settings, batch class on the thread pool). */
  newDecoder(): NativeDecoder;
  /** Decoders, so utterances decoded at once. At least 1. */
  parallel: number;
  sampleRate: number;
  /** Longest utterance decoded in one piece, seconds. */
  maxUtteranceSec: number;
  /** Audio per native call, seconds; 0 feeds each utterance in one call with pocketsphinx's whole-utterance mean. */
  chunkSec: number;
  vad?: VoiceActivityDetector;
}

export interface BatchDecoding {
  decodeClip(pcm: Int16Array): Promise<RecognitionResult>;
  /** Waits for running clips, then frees the decoders. */
  close(): Promise<void>;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** A copy with -1 or +1 added to each sample, the same every time (a fixed pseudo-random sequence). */
export function dither(pcm: Int16Array): Int16Array {
  const out = new Int16Array(pcm.length);
  let state = 0x2545f491;
  for (let i = 0; i < pcm.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = Math.max(-32768, Math.min(32767, pcm[i]! + ((state >>> 16) & 1 ? 1 : -1)));
  }
  return out;
}

/** Creates the batch decoder set (decoders load on first use). */
export function createBatchDecoding(options: BatchDecodingOptions): BatchDecoding {
  const parallel = Math.max(1, Math.floor(options.parallel));
  const chunk = Math.floor(options.chunkSec * options.sampleRate);
  const idle: NativeDecoder[] = [];
  const waiters: Array<{ resolve: (dec: NativeDecoder) => void; reject: (err: unknown) => void }> = [];
  const running = new Set<Promise<unknown>>();
  let made = 0;
  let closed = false;

  const make = (): NativeDecoder => {
    made++;
    try {
      return options.newDecoder();
    } catch (err) {
      made--;
      throw err;
    }
  };

  const acquire = (): Promise<NativeDecoder> => {
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    if (made < parallel) {
      try {
        return Promise.resolve(make());
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  };

  /** Gives a decoder back; one that failed mid-utterance is freed and replaced for the next waiter. */
  const release = (dec: NativeDecoder, healthy: boolean): void => {
    const next = waiters.shift();
    if (healthy && next) return next.resolve(dec);
    if (healthy && !closed) return void idle.push(dec);
    dec.free();
    made--;
    if (!next) return;
    try {
      next.resolve(make());
    } catch (err) {
      next.reject(err);
    }
  };

  /**
   * Installs the utterance's own mean cepstrum as the running mean, so short calls normalise as
   * one whole-utterance call would. Returns the audio to feed (dithered when it held digital
   * silence), or null when the decoder's mean cannot be set (then: one whole-utterance call).
   */
  const seedCmn = (dec: NativeDecoder, piece: Int16Array): Int16Array | null => {
    let audio = piece;
    let m = dec.utteranceMean(audio);
    if (m && m.zeroEnergyFrames > 0) {
      audio = dither(piece);
      m = dec.utteranceMean(audio);
    }
    if (!m || !m.mean.every(Number.isFinite)) return null;
    return dec.setCmn(m.mean) ? audio : null;
  };

  const decodeUtterance = async (pcm: Int16Array, seg: UtterancePlan): Promise<RecognizedWord[]> => {
    const dec = await acquire();
    let healthy = false;
    try {
      const piece = pcm.subarray(seg.startSample, seg.endSample);
      dec.startUtt();
      const audio = chunk > 0 ? seedCmn(dec, piece) : null;
      if (audio) {
        for (let i = 0; i < audio.length; i += chunk) await dec.processAsync(audio.subarray(i, i + chunk), false);
      } else {
        await dec.processAsync(piece, true);
      }
      await dec.endUttAsync();
      const result = await dec.resultAsync(seg.startSample / options.sampleRate, true);
      healthy = true;
      return result.words;
    } finally {
      release(dec, healthy);
    }
  };

  const decodeClip = async (pcm: Int16Array): Promise<RecognitionResult> => {
    const plan = await planUtterances(pcm, options.sampleRate, { maxSec: options.maxUtteranceSec, vad: options.vad });
    // Every utterance asks for a decoder now; they get one in order, `parallel` at a time. All
    // settle before the clip does, so no decoder is still busy when a failed clip is reported.
    const pieces = await Promise.allSettled(plan.map((seg) => decodeUtterance(pcm, seg)));
    const failed = pieces.find((p): p is PromiseRejectedResult => p.status === 'rejected');
    if (failed) throw failed.reason;
    const words = pieces.flatMap((p) => (p.status === 'fulfilled' ? p.value : []));
    const text = words.map((w) => w.word).join(' ');
    const confidence = words.length ? round3(words.reduce((s, w) => s + w.confidence, 0) / words.length) : 0;
    return { text, words, confidence };
  };

  return {
    decodeClip(pcm) {
      const run = decodeClip(pcm);
      const tracked = run.catch(() => undefined);
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
      return run;
    },
    async close() {
      closed = true;
      while (running.size) await Promise.all([...running]);
      for (const d of idle.splice(0)) d.free();
    },
  };
}
