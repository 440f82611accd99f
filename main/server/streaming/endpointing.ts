/**
 * Voice-activity endpointing for live sessions. The Silero detector's streaming endpointer is
 * used when the detector offers one; otherwise (another detector, or the ONNX model failing at
 * run time) an energy endpointer with the same events keeps sessions producing finals.
 */
import type { VoiceActivityDetector } from '../../services/transcriptions/ports.js';

export interface EndpointEvent {
  type: 'speech_start' | 'speech_end';
  /** Seconds from the start of the audio pushed into this endpointer. */
  time: number;
}

/** What a session needs from an endpointer (Silero's `createEndpointer` has this shape). */
export interface SessionEndpointer {
  push(pcm: Int16Array): Promise<EndpointEvent[]>;
  readonly inSpeech: boolean;
}

export interface EndpointingOptions {
  /** Silence that ends an utterance, ms: most of a final's latency. */
  endSilenceMs: number;
  /** Speech needed before an utterance counts as started, ms. */
  minSpeechMs: number;
}

type WithEndpointer = VoiceActivityDetector & {
  createEndpointer?: (options?: Partial<EndpointingOptions>) => SessionEndpointer;
};

/** The detector's own endpointer when it has one, else the energy endpointer. */
export function createSessionEndpointer(vad: VoiceActivityDetector | undefined, options: EndpointingOptions): SessionEndpointer {
  const v = vad as WithEndpointer | undefined;
  if (v && typeof v.createEndpointer === 'function') return v.createEndpointer(options);
  return createEnergyEndpointer(options);
}

const RATE = 16000;
const FRAME = 320; // 20 ms

/**
 * Energy endpointer with an adaptive noise floor: a frame is speech when its RMS stands 12 dB
 * over the floor (and over an absolute minimum). Cruder than Silero, but needs no model.
 */
export function createEnergyEndpointer(options: EndpointingOptions): SessionEndpointer {
  const endFrames = Math.max(1, Math.round((options.endSilenceMs * RATE) / 1000 / FRAME));
  const startFrames = Math.max(1, Math.round((options.minSpeechMs * RATE) / 1000 / FRAME));
  let floor = 200;
  let carry = new Int16Array(0);
  let index = 0;
  let inSpeech = false;
  let speechRun = 0;
  let runStart = 0;
  let silenceRun = 0;
  let silenceStart = 0;
  return {
    get inSpeech() {
      return inSpeech;
    },
    async push(pcm) {
      const all = new Int16Array(carry.length + pcm.length);
      all.set(carry);
      all.set(pcm, carry.length);
      const events: EndpointEvent[] = [];
      let off = 0;
      for (; off + FRAME <= all.length; off += FRAME) {
        let sum = 0;
        for (let i = off; i < off + FRAME; i++) sum += all[i]! * all[i]!;
        const rms = Math.sqrt(sum / FRAME);
        const speech = rms > Math.max(300, floor * 4);
        if (!speech) floor = floor * 0.95 + rms * 0.05;
        const idx = index++;
        if (!inSpeech) {
          if (speech) {
            if (speechRun === 0) runStart = idx;
            if (++speechRun >= startFrames) {
              inSpeech = true;
              silenceRun = 0;
              events.push({ type: 'speech_start', time: (runStart * FRAME) / RATE });
            }
          } else speechRun = 0;
        } else if (!speech) {
          if (silenceRun === 0) silenceStart = idx;
          if (++silenceRun >= endFrames) {
            inSpeech = false;
            speechRun = 0;
            events.push({ type: 'speech_end', time: (silenceStart * FRAME) / RATE });
          }
        } else silenceRun = 0;
      }
      carry = all.slice(off);
      return events;
    },
  };
}
