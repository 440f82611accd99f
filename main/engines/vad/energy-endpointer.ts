/**
 * Energy endpointer for live sessions, the fallback when the Silero model is missing or fails at
 * run time: same events as Silero's endpointer, no model. A 20 ms frame is speech when its RMS
 * stands 12 dB over an adaptive noise floor (and over an absolute minimum). Cruder than Silero.
 */
import type { EndpointEvent, Endpointer, EndpointingOptions } from '../../services/transcriptions/ports.js';
import { createSpeechRuns } from './speech-runs.js';

const RATE = 16000;
const FRAME = 320; // 20 ms

/** Creates an energy endpointer for one session (16 kHz mono PCM). */
export function createEnergyEndpointer(options: EndpointingOptions): Endpointer {
  const endFrames = Math.max(1, Math.round((options.endSilenceMs * RATE) / 1000 / FRAME));
  const startFrames = Math.max(1, Math.round((options.minSpeechMs * RATE) / 1000 / FRAME));
  let floor = 200;
  let carry = new Int16Array(0);
  const runs = createSpeechRuns(startFrames, endFrames, FRAME, RATE);
  return {
    get inSpeech() {
      return runs.inSpeech;
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
        runs.frame(speech ? 'speech' : 'silence', events);
      }
      carry = all.slice(off);
      return events;
    },
  };
}
