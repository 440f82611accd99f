/**
 * The utterance state machine both live endpointers share (engines/vad/speech-runs.ts): runs of
 * speech open an utterance, runs of silence close it, and Silero's in-between band only matters
 * before an utterance has started.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointEvent } from '../../main/services/transcriptions/ports.js';
import { createSpeechRuns, type FrameVerdict } from '../../main/engines/vad/speech-runs.js';
import { createEnergyEndpointer } from '../../main/engines/vad/index.js';

const feed = (verdicts: FrameVerdict[], start = 3, end = 2) => {
  const runs = createSpeechRuns(start, end, 320, 16000);
  const events: EndpointEvent[] = [];
  for (const v of verdicts) runs.frame(v, events);
  return { events, inSpeech: runs.inSpeech };
};

describe('speech runs', () => {
  it('starts at the first frame of a long enough run of speech and ends at the first silent frame', () => {
    const { events, inSpeech } = feed(['silence', 'speech', 'speech', 'speech', 'speech', 'silence', 'silence']);
    expect(events).toEqual([{ type: 'speech_start', time: 0.02 }, { type: 'speech_end', time: 0.1 }]);
    expect(inSpeech).toBe(false);
  });

  it('a frame in between breaks a run of speech before an utterance, and changes nothing inside one', () => {
    expect(feed(['speech', 'speech', 'between', 'speech', 'speech']).events).toEqual([]);
    const inside = feed(['speech', 'speech', 'speech', 'silence', 'between', 'silence']);
    expect(inside.events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
    expect(inside.events[1]!.time).toBe(0.06);
  });

  it('speech inside an utterance restarts the count of silence', () => {
    const { events, inSpeech } = feed(['speech', 'speech', 'speech', 'silence', 'speech', 'silence']);
    expect(events.map((e) => e.type)).toEqual(['speech_start']);
    expect(inSpeech).toBe(true);
  });

  it('drives the energy endpointer: a loud second in quiet gives one start and one end', async () => {
    const ep = createEnergyEndpointer({ endSilenceMs: 400, minSpeechMs: 96 });
    const pcm = new Int16Array(16000 * 3);
    for (let i = 16000; i < 32000; i++) pcm[i] = Math.round(8000 * Math.sin(i / 5));
    const events = await ep.push(pcm);
    expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
    expect(events[0]!.time).toBeCloseTo(1, 1);
    expect(events[1]!.time).toBeCloseTo(2, 1);
    expect(ep.inSpeech).toBe(false);
  });
});
