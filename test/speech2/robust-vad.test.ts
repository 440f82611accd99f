import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import { createFixtures, type AudioFixtures } from '../speech/fixtures.js';
import { createFfmpegDecoder } from '../../main/engines/audio/index.js';
import { createRobustVad, createSileroVad, energySegments, overlapSeconds, unionSegments } from '../../main/engines/vad/index.js';
import type { SpeechSegment, VoiceActivityDetector } from '../../main/services/transcriptions/ports.js';

const SR = 16000;
const seconds = (segs: SpeechSegment[]): number => segs.reduce((s, x) => s + x.end - x.start, 0);
const concat = (...parts: Int16Array[]): Int16Array => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};
const silence = (sec: number): Int16Array => new Int16Array(Math.round(sec * SR));

/** A model that hears nothing: how Silero behaves on some narrow-band radio speech. */
const deafModel: VoiceActivityDetector = { segments: async () => [] };

describe('segment arithmetic', () => {
  it('measures overlap and merges unions', () => {
    const a = [{ start: 0, end: 2 }, { start: 5, end: 6 }];
    const b = [{ start: 1, end: 3 }, { start: 5.5, end: 7 }];
    expect(overlapSeconds(a, b)).toBeCloseTo(1.5, 6);
    expect(unionSegments(a, b)).toEqual([{ start: 0, end: 3 }, { start: 5, end: 7 }]);
  });
});

describe('robust VAD (Silero + energy)', () => {
  let fx: AudioFixtures;
  let speech: Int16Array;
  const silero = createSileroVad();
  beforeAll(() => {
    fx = createFixtures();
    speech = fx.pcm(fx.speak('a', 'the patient reports chest pain since this morning'));
  });
  afterAll(async () => {
    fx.cleanup();
    await silero.close();
  });

  it('recovers speech that the model misses when the clip has clear loud stretches', async () => {
    const pcm = concat(silence(0.5), speech, silence(1), speech, silence(0.5));
    const vad = createRobustVad({ model: deafModel });
    const d = await vad.decide(pcm, SR);
    expect(d.source).toBe('union');
    expect(d.coverage).toBe(0);
    const spoken = 2 * (speech.length / SR);
    expect(seconds(d.segments)).toBeGreaterThan(0.7 * spoken);
    expect(d.segments.length).toBeGreaterThanOrEqual(2);
    expect(d.segments[0]!.start).toBeGreaterThan(0.3);
  });

  it("keeps Silero's segments when Silero hears the speech, so a noise burst is not speech", async () => {
    let seed = 1;
    const burst = Int16Array.from({ length: Math.round(0.4 * SR) }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 20000);
    const pcm = concat(silence(0.5), speech, silence(1), speech, silence(1.5), burst, silence(0.5));
    const burstStart = (pcm.length - burst.length) / SR - 0.5;
    expect(energySegments(pcm, SR).some((s) => s.end > burstStart)).toBe(true); // energy alone calls it speech
    const d = await createRobustVad({ model: silero }).decide(pcm, SR);
    expect(d.source).toBe('model');
    expect(d.segments.length).toBeGreaterThan(0);
    expect(d.segments.every((s) => s.end < burstStart)).toBe(true);
  });

  it('finds no speech in silence or steady noise', async () => {
    const vad = createRobustVad({ model: deafModel });
    expect(await vad.segments(silence(3), SR)).toEqual([]);
    let seed = 7;
    const hiss = Int16Array.from({ length: 3 * SR }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 2000);
    expect(await vad.segments(hiss, SR)).toEqual([]);
  });

  const radio = '/usr/share/codec2/wav/david4.wav';
  it.skipIf(!existsSync(radio))('hears real radio speech with squelched pauses that Silero alone misses (codec2-examples)', async () => {
    // david4 is 8 kHz speech under steady static (loud/quiet contrast under 2 dB), so energy
    // alone cannot segment it; cut into transmissions with silent pauses, as a squelch does.
    const full = (await createFfmpegDecoder().decodeFile(radio, { sampleRate: SR })).channels[0]!;
    const parts = [0, 1, 2, 3, 4].flatMap((k) => [silence(0.8), full.subarray(k * 5 * SR, (k * 5 + 4) * SR)]);
    const pcm = concat(...parts, silence(0.8));
    const spoken = 20;
    const alone = seconds(await silero.segments(pcm, SR));
    const robust = seconds(await createRobustVad({ model: silero }).segments(pcm, SR));
    expect(alone).toBeLessThan(0.2 * spoken);
    expect(robust).toBeGreaterThan(0.9 * spoken);
    expect(robust).toBeLessThan(spoken + 1);
    // The whole recording has no pauses and no contrast: nothing to add, Silero's answer stands.
    expect(await createRobustVad({ model: silero }).decide(full, SR)).toMatchObject({ source: 'model' });
  });
});
