import { describe, it, expect } from 'vitest';
import { createResampler } from '../../shared/audio/resampler.js';
import { bytesToBase64, levelOf, toLinear16 } from '../../renderer/audio/pcm.js';

const sine = (freq: number, rate: number, seconds: number, amp = 0.5): Float32Array =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) => amp * Math.sin((2 * Math.PI * freq * i) / rate));

const rms = (x: Float32Array, from = 200): number => {
  let s = 0;
  for (let i = from; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s / (x.length - from));
};

/** Zero crossings per second: a frequency estimate that needs no FFT. */
const crossingsPerSecond = (x: Float32Array, rate: number): number => {
  let n = 0;
  for (let i = 201; i < x.length; i++) if ((x[i - 1]! < 0) !== (x[i]! < 0)) n++;
  return (n / 2) * (rate / (x.length - 201));
};

describe('resampling the microphone to 16 kHz', () => {
  it('keeps a speech-band tone at its pitch and loudness', () => {
    const r = createResampler(48_000);
    const out = r.push(sine(440, 48_000, 1));
    // At most a millisecond is held back for the filter's look-ahead; flushing returns it, so one
    // second in is exactly one second out.
    expect(out.length).toBeGreaterThan(15_984);
    expect(out.length + r.flush().length).toBe(16_000);
    expect(crossingsPerSecond(out, 16_000)).toBeCloseTo(440, -1);
    expect(rms(out)).toBeCloseTo(0.5 / Math.SQRT2, 1);
  });

  it('removes tones above the new Nyquist instead of aliasing them into speech', () => {
    const out = createResampler(48_000).push(sine(11_000, 48_000, 0.5));
    expect(rms(out)).toBeLessThan(0.05);
  });

  it('gives the same samples whether audio arrives whole or in worklet-sized chunks', () => {
    const input = sine(300, 44_100, 0.5);
    const whole = createResampler(44_100).push(input);
    const r = createResampler(44_100);
    const parts: number[] = [];
    for (let i = 0; i < input.length; i += 2048) parts.push(...r.push(input.subarray(i, i + 2048)));
    expect(parts.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(parts[i]).toBeCloseTo(whole[i]!, 5);
  });
});

describe('linear16 encoding', () => {
  it('writes little-endian 16-bit samples and clips out-of-range values', () => {
    const bytes = toLinear16(Float32Array.from([0, 1, -1, 2, -2, 0.5]));
    const view = new DataView(bytes.buffer);
    expect([0, 1, 2, 3, 4, 5].map((i) => view.getInt16(i * 2, true))).toEqual([0, 32767, -32768, 32767, -32768, 16384]);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('shows silence as an empty meter and a loud voice near full', () => {
    expect(levelOf(new Float32Array(512))).toBe(0);
    expect(levelOf(sine(200, 16_000, 0.1, 0.9))).toBeGreaterThan(0.9);
  });
});
