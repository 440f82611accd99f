import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSileroVad } from '../../main/engines/vad/index.js';
import type { EndpointEvent } from '../../main/services/transcriptions/ports.js';
import { createFixtures, DIGITS_TEXT, type AudioFixtures } from './fixtures.js';

describe('Silero voice activity detection', () => {
  let fx: AudioFixtures;
  let speech: Int16Array;
  let clip: Int16Array; // 1 s silence, speech, 2 s silence, speech, 1 s silence
  const vad = createSileroVad();

  beforeAll(() => {
    fx = createFixtures();
    speech = fx.pcm(fx.speak('s', DIGITS_TEXT));
    clip = new Int16Array(16000 + speech.length + 32000 + speech.length + 16000);
    clip.set(speech, 16000);
    clip.set(speech, 16000 + speech.length + 32000);
  });
  afterAll(async () => {
    await vad.close();
    fx.cleanup();
  });

  it('finds the two stretches of speech and not the silences', async () => {
    const segs = await vad.segments(clip, 16000);
    const len = speech.length / 16000;
    // espeak pauses at the full stops, so each stretch may come back as a few pieces.
    expect(segs.length).toBeGreaterThanOrEqual(2);
    expect(segs[0]!.start).toBeGreaterThan(0.8);
    expect(segs[0]!.start).toBeLessThan(1.5);
    expect(segs[segs.length - 1]!.end).toBeGreaterThan(1 + len + 2 + len - 0.6);
    expect(segs[segs.length - 1]!.end).toBeLessThan(1 + len + 2 + len + 0.4);
    const inGap = segs.some((s) => s.start > 1 + len + 0.4 && s.end < 1 + len + 1.6);
    expect(inGap).toBe(false);
  });

  it('reports no speech in silence or low noise', async () => {
    const noise = new Int16Array(16000 * 2).map(() => Math.round((Math.random() - 0.5) * 60));
    expect(await vad.segments(noise, 16000)).toEqual([]);
  });

  it('handles other sample rates', async () => {
    const at8k = fx.pcm(fx.writeWav('clip.wav', clip), 8000);
    const segs = await vad.segments(at8k, 8000);
    expect(segs.length).toBeGreaterThanOrEqual(2);
    expect(segs[0]!.start).toBeGreaterThan(0.8);
  });

  it('endpoints a live stream: start after speech begins, end after the pause', async () => {
    const ep = vad.createEndpointer({ endSilenceMs: 500 });
    const events: EndpointEvent[] = [];
    for (let i = 0; i < clip.length; i += 1600) events.push(...(await ep.push(clip.subarray(i, i + 1600))));
    const starts = events.filter((e) => e.type === 'speech_start');
    const ends = events.filter((e) => e.type === 'speech_end');
    expect(starts.length).toBeGreaterThanOrEqual(2);
    expect(ends.length).toBe(starts.length);
    expect(starts[0]!.time).toBeGreaterThan(0.8);
    expect(starts[0]!.time).toBeLessThan(1.5);
    // Events alternate start/end.
    events.forEach((e, i) => expect(e.type).toBe(i % 2 === 0 ? 'speech_start' : 'speech_end'));
    expect(ep.inSpeech).toBe(false);
  });
});
