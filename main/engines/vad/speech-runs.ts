/**
 * The utterance state machine both live endpointers share (Silero's and the energy fallback):
 * `startFrames` speech frames in a row open an utterance (`speech_start` at the first of them),
 * `endFrames` silent frames in a row close it (`speech_end` at the first silent one). A frame
 * between the two thresholds (Silero's hysteresis band) breaks a run of speech before an utterance
 * and changes nothing inside one.
 */
import type { EndpointEvent } from '../../services/transcriptions/ports.js';

/** One frame's verdict: above the speech threshold, below the silence threshold, or in between. */
export type FrameVerdict = 'speech' | 'silence' | 'between';

export interface SpeechRuns {
  readonly inSpeech: boolean;
  /** Takes the next frame's verdict; an event it causes is pushed onto `events`. */
  frame(verdict: FrameVerdict, events: EndpointEvent[]): void;
}

/** Frames in a row of one kind: where the run began, and whether it is long enough yet. */
function runOf(needed: number) {
  let length = 0;
  let start = 0;
  return {
    get start() {
      return start;
    },
    reset(): void {
      length = 0;
    },
    /** Adds frame `idx`; true when the run has reached `needed` frames. */
    add(idx: number): boolean {
      if (length === 0) start = idx;
      return ++length >= needed;
    },
  };
}

/** `frameSamples` and `rate` give the events' times (frame index x samples / rate, in seconds). */
export function createSpeechRuns(startFrames: number, endFrames: number, frameSamples: number, rate: number): SpeechRuns {
  const speech = runOf(startFrames);
  const silence = runOf(endFrames);
  let index = 0;
  let inSpeech = false;
  return {
    get inSpeech() {
      return inSpeech;
    },
    frame(verdict, events) {
      const idx = index++;
      if (!inSpeech) {
        if (verdict !== 'speech') return speech.reset();
        if (!speech.add(idx)) return;
        inSpeech = true;
        silence.reset();
        events.push({ type: 'speech_start', time: (speech.start * frameSamples) / rate });
        return;
      }
      if (verdict === 'speech') silence.reset();
      if (verdict !== 'silence' || !silence.add(idx)) return;
      inSpeech = false;
      speech.reset();
      events.push({ type: 'speech_end', time: (silence.start * frameSamples) / rate });
    },
  };
}
