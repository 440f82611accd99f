/**
 * Streaming resampler from the microphone's rate (usually 44.1 or 48 kHz) to 16 kHz, the rate
 * the speech engines expect. A Hann-windowed sinc low-pass (cut-off just under the new Nyquist)
 * keeps fricatives from aliasing into the speech band; then linear interpolation picks the new
 * samples. State carries across chunks, so chunked output equals whole-signal output.
 */
export interface Resampler {
  /** Feeds input samples (-1..1); returns the output samples they complete. */
  push(input: Float32Array): Float32Array;
}

const TAPS = 31;

function lowPassKernel(cutoff: number): Float32Array {
  // cutoff as a fraction of the input sample rate (0..0.5)
  const k = new Float32Array(TAPS);
  const mid = (TAPS - 1) / 2;
  let sum = 0;
  for (let i = 0; i < TAPS; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (TAPS - 1));
    k[i] = sinc * hann;
    sum += k[i]!;
  }
  for (let i = 0; i < TAPS; i++) k[i]! /= sum;
  return k;
}

/** Creates a resampler from `inRate` to `outRate` (outRate <= inRate; equal rates pass through). */
export function createResampler(inRate: number, outRate = 16_000): Resampler {
  if (!(inRate > 0) || !(outRate > 0)) throw new Error('sample rates must be positive');
  if (inRate === outRate) return { push: (input) => Float32Array.from(input) };
  const step = inRate / outRate;
  const kernel = lowPassKernel((0.45 * Math.min(inRate, outRate)) / inRate);
  // Filter history: the last TAPS-1 raw inputs. Filtered samples are kept until consumed.
  let history = new Float32Array(TAPS - 1);
  let filtered = new Float32Array(0);
  let filteredStart = 0; // absolute index of filtered[0]
  let nextPos = 0; // absolute (fractional) input position of the next output sample
  return {
    push(input) {
      const joined = new Float32Array(history.length + input.length);
      joined.set(history);
      joined.set(input, history.length);
      const fresh = new Float32Array(input.length);
      for (let i = 0; i < input.length; i++) {
        let acc = 0;
        for (let t = 0; t < TAPS; t++) acc += joined[i + t]! * kernel[t]!;
        fresh[i] = acc;
      }
      history = joined.slice(joined.length - (TAPS - 1));
      const all = new Float32Array(filtered.length + fresh.length);
      all.set(filtered);
      all.set(fresh, filtered.length);
      const end = filteredStart + all.length; // exclusive
      const out: number[] = [];
      while (nextPos + 1 < end) {
        const i = Math.floor(nextPos);
        const frac = nextPos - i;
        const a = all[i - filteredStart]!;
        const b = all[i + 1 - filteredStart]!;
        out.push(a + (b - a) * frac);
        nextPos += step;
      }
      const keepFrom = Math.min(all.length, Math.max(0, Math.floor(nextPos) - filteredStart));
      filtered = all.slice(keepFrom);
      filteredStart += keepFrom;
      return Float32Array.from(out);
    },
  };
}

/** Float samples (-1..1) to 16-bit little-endian signed PCM (`linear16`). */
export function toLinear16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
  }
  return bytes;
}

/** Base64 of bytes without Node's Buffer (the renderer runs in a browser). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Microphone level for the meter: RMS mapped from -60..0 dBFS onto 0..1. */
export function levelOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  const rms = Math.sqrt(sum / samples.length);
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.max(0, Math.min(1, (db + 60) / 60));
}
