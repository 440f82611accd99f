/**
 * Streaming endpointing for live sessions: turns 16 kHz PCM into `speech_start` / `speech_end`
 * events. Speech starts once frames above the threshold add up to `minSpeechMs` (the event carries
 * the time of the first such frame); it ends after `endSilenceMs` below the lower hysteresis
 * threshold (the event carries the time the silence began). The live socket finalises an utterance
 * on `speech_end`, so `endSilenceMs` is most of the final's latency.
 */
import type { EndpointEvent, Endpointer } from '../../services/transcriptions/ports.js';
import { createSpeechRuns } from './speech-runs.js';

export interface EndpointerOptions {
  /** Speech probability threshold. Default: the detector's (0.5). */
  threshold?: number;
  /** Silence that ends an utterance, ms. Default 500. */
  endSilenceMs?: number;
  /** Speech needed before an utterance counts as started, ms. Default 96 (3 frames). */
  minSpeechMs?: number;
}

/** What the endpointer reads frames through: a model run frame by frame, carrying its own state (Silero's LSTM). */
export interface FrameScorer {
  score(frame: Float32Array): Promise<number>;
}

/** The Endpointer port, plus how much audio the model has scored. */
export interface SileroEndpointer extends Endpointer {
  /** Seconds of audio consumed so far. */
  readonly time: number;
}

const FRAME = 512;
const RATE = 16000;

/** Creates an endpointer over a frame scorer that owns its own model state. */
export function createEndpointer(scorer: FrameScorer, options: EndpointerOptions & { threshold: number }): SileroEndpointer {
  const threshold = options.threshold;
  const negThreshold = Math.max(0.01, threshold - 0.15);
  const endSilenceFrames = Math.max(1, Math.round(((options.endSilenceMs ?? 500) * RATE) / 1000 / FRAME));
  const minSpeechFrames = Math.max(1, Math.round(((options.minSpeechMs ?? 96) * RATE) / 1000 / FRAME));
  let carry = new Float32Array(0);
  let frameIndex = 0;
  const runs = createSpeechRuns(minSpeechFrames, endSilenceFrames, FRAME, RATE);
  let queue: Promise<unknown> = Promise.resolve();

  const step = async (frame: Float32Array, events: EndpointEvent[]): Promise<void> => {
    const p = await scorer.score(frame);
    frameIndex++;
    runs.frame(p >= threshold ? 'speech' : p < negThreshold ? 'silence' : 'between', events);
  };

  const run = async (pcm: Int16Array): Promise<EndpointEvent[]> => {
    const all = new Float32Array(carry.length + pcm.length);
    all.set(carry);
    for (let i = 0; i < pcm.length; i++) all[carry.length + i] = pcm[i]! / 32768;
    const events: EndpointEvent[] = [];
    let off = 0;
    for (; off + FRAME <= all.length; off += FRAME) await step(all.slice(off, off + FRAME), events);
    carry = all.slice(off);
    return events;
  };

  return {
    push(pcm) {
      // Serialise: the recurrent state must see frames in order even if callers do not await.
      const next = queue.then(() => run(pcm));
      queue = next.catch(() => undefined);
      return next;
    },
    get inSpeech() {
      return runs.inSpeech;
    },
    get time() {
      return (frameIndex * FRAME) / RATE;
    },
  };
}
