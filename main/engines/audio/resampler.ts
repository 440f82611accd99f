/**
 * A streaming band-limited resampler (windowed sinc, Blackman window). Downsampling low-passes at
 * the output Nyquist so 44.1/48 kHz microphones do not alias into the recogniser's band; chunk
 * boundaries are seamless because input history is kept between calls. Times are exact: output
 * sample n corresponds to input time n / outRate.
 */

export interface StreamResampler {
  /** Feeds input samples (float, [-1, 1]); returns the output samples now computable. */
  push(input: Float32Array): Float32Array;
  /** Flushes the tail (zero padding past the end) so the output length matches the input duration. */
  flush(): Float32Array;
}

const ZERO_CROSSINGS = 12;

function kernel(x: number, cutoff: number, halfWidth: number): number {
  if (Math.abs(x) >= halfWidth) return 0;
  const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / halfWidth) + 0.08 * Math.cos((2 * Math.PI * x) / halfWidth);
  const arg = Math.PI * cutoff * x;
  const sinc = arg === 0 ? 1 : Math.sin(arg) / arg;
  return cutoff * sinc * w;
}

/** Creates a resampler from `inRate` to `outRate` Hz. Equal rates pass samples through. */
export function createResampler(inRate: number, outRate: number): StreamResampler {
  if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('sample rates must be positive');
  if (inRate === outRate) {
    return { push: (input) => input.slice(), flush: () => new Float32Array(0) };
  }
  const step = inRate / outRate;
  const cutoff = Math.min(1, outRate / inRate) * 0.95;
  const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff);
  // buffer[0] is input sample `bufferStart - halfWidth`; leading zeros stand in for the past.
  let buffer = new Float32Array(halfWidth);
  let bufferOrigin = -halfWidth; // input index of buffer[0]
  let inputCount = 0;
  let outputCount = 0;

  const produce = (limitInput: number): Float32Array => {
    const out: number[] = [];
    for (;;) {
      const t = outputCount * step; // input-time of the next output sample
      if (t + halfWidth >= bufferOrigin + buffer.length || t >= limitInput) break;
      const center = t - bufferOrigin;
      const lo = Math.max(0, Math.ceil(center - halfWidth));
      const hi = Math.min(buffer.length - 1, Math.floor(center + halfWidth));
      let acc = 0;
      for (let k = lo; k <= hi; k++) acc += buffer[k]! * kernel(center - k, cutoff, halfWidth);
      out.push(acc);
      outputCount++;
    }
    // Drop input no future output can reach.
    const keepFrom = Math.max(0, Math.floor(outputCount * step - halfWidth) - bufferOrigin - 1);
    if (keepFrom > 0) {
      buffer = buffer.slice(keepFrom);
      bufferOrigin += keepFrom;
    }
    return Float32Array.from(out);
  };

  const append = (input: Float32Array): void => {
    const next = new Float32Array(buffer.length + input.length);
    next.set(buffer);
    next.set(input, buffer.length);
    buffer = next;
  };

  return {
    push(input) {
      append(input);
      inputCount += input.length;
      return produce(Number.POSITIVE_INFINITY);
    },
    flush() {
      append(new Float32Array(halfWidth + 1));
      return produce(inputCount);
    },
  };
}

/** One-shot resampling of a whole 16-bit clip. */
export function resampleInt16(pcm: Int16Array, inRate: number, outRate: number): Int16Array {
  if (inRate === outRate) return pcm.slice();
  const r = createResampler(inRate, outRate);
  const f = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) f[i] = pcm[i]! / 32768;
  const a = r.push(f);
  const b = r.flush();
  const out = new Int16Array(a.length + b.length);
  const write = (src: Float32Array, offset: number): void => {
    for (let i = 0; i < src.length; i++) {
      const v = Math.round(src[i]! * 32768);
      out[offset + i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
    }
  };
  write(a, 0);
  write(b, a.length);
  return out;
}
