/**
 * A streaming band-limited resampler (windowed sinc, Blackman window), used by both sides: the
 * local API converts uploads and live audio to the engines' rate with it, and the renderer turns
 * the microphone's 44.1/48 kHz into the 16 kHz `linear16` stream with it. Downsampling low-passes
 * at the output Nyquist so high frequencies do not alias into the speech band; chunk boundaries
 * are seamless because input history is kept between calls. Times are exact: output sample n
 * corresponds to input time n / outRate. Pure code with no Node or DOM API, so it runs anywhere.
 */

export interface StreamResampler {
  /** Feeds input samples (float, [-1, 1]); returns the output samples now computable. */
  push(input: Float32Array): Float32Array;
  /** Flushes the tail (zero padding past the end) so the output length matches the input duration. */
  flush(): Float32Array;
}

const ZERO_CROSSINGS = 12;
/** Above this many distinct kernel phases (unusual rate pairs) weights are computed per sample. */
const MAX_TABLE_PHASES = 4096;

function kernel(x: number, cutoff: number, halfWidth: number): number {
  if (Math.abs(x) >= halfWidth) return 0;
  const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / halfWidth) + 0.08 * Math.cos((2 * Math.PI * x) / halfWidth);
  const arg = Math.PI * cutoff * x;
  const sinc = arg === 0 ? 1 : Math.sin(arg) / arg;
  return cutoff * sinc * w;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Creates a resampler from `inRate` to `outRate` Hz (default 16 kHz, the rate the speech engines
 * take). Equal rates pass samples through.
 */
export function createResampler(inRate: number, outRate = 16_000): StreamResampler {
  if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('sample rates must be positive');
  if (inRate === outRate) {
    return { push: (input) => input.slice(), flush: () => new Float32Array(0) };
  }
  const cutoff = Math.min(1, outRate / inRate) * 0.95;
  const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff);
  const taps = 2 * halfWidth;
  // Output n sits at input time n·p/q: whole sample floor(n·p/q) plus phase (n·p mod q)/q. With
  // integer rates there are only q phases, so each phase's weights are computed once, not per
  // sample (the renderer runs this on its main thread for every microphone block).
  const integral = Number.isInteger(inRate) && Number.isInteger(outRate);
  const g = integral ? gcd(inRate, outRate) : 1;
  const p = integral ? inRate / g : inRate;
  const q = integral ? outRate / g : outRate;
  const table: (Float64Array | undefined)[] | undefined = integral && q <= MAX_TABLE_PHASES ? new Array(q) : undefined;
  /** Weights of input samples whole-halfWidth+1 .. whole+halfWidth for an output at whole+frac. */
  const weightsFor = (phase: number, frac: number): Float64Array => {
    const cached = table?.[phase];
    if (cached) return cached;
    const w = new Float64Array(taps);
    for (let j = 0; j < taps; j++) w[j] = kernel(frac - (j - halfWidth + 1), cutoff, halfWidth);
    if (table) table[phase] = w;
    return w;
  };

  // buffer[0] is input sample `bufferOrigin`; leading zeros stand in for the past.
  let buffer = new Float32Array(halfWidth);
  let bufferOrigin = -halfWidth;
  let inputCount = 0;
  let outputCount = 0;

  const produce = (limitInput: number): Float32Array => {
    const out: number[] = [];
    for (;;) {
      const scaled = outputCount * p; // input time of the next output sample, times q
      const whole = Math.floor(scaled / q);
      const phase = integral ? scaled - whole * q : 0;
      const frac = integral ? phase / q : scaled / q - whole;
      const t = whole + frac;
      if (t + halfWidth >= bufferOrigin + buffer.length || t >= limitInput) break;
      const w = weightsFor(phase, frac);
      const first = whole - halfWidth + 1 - bufferOrigin; // buffer index of w[0]
      const lo = Math.max(0, -first);
      const hi = Math.min(taps, buffer.length - first);
      let acc = 0;
      for (let j = lo; j < hi; j++) acc += buffer[first + j]! * w[j]!;
      out.push(acc);
      outputCount++;
    }
    // Drop input no future output can reach.
    const keepFrom = Math.max(0, Math.floor((outputCount * p) / q - halfWidth) - bufferOrigin - 1);
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
