/**
 * Log-mel spectrogram and MFCCs of 16-bit PCM. The diarizer describes voices with MFCCs; the
 * ONNX CTC recogniser feeds the log-mel frames (Slaney scale) to Conformer-CTC models.
 */
import { fft } from './fft.js';

export interface LogMelOptions {
  sampleRate?: number;
  /** Number of mel bands. Default 80. */
  nMels?: number;
  /** Window and hop in samples. Defaults 400 and 160 (25 ms, 10 ms at 16 kHz). */
  winLength?: number;
  hopLength?: number;
  /** FFT size (power of two >= winLength). Default 512. */
  nFft?: number;
  /** Pre-emphasis coefficient; 0 turns it off. Default 0.97. */
  preemphasis?: number;
  /** `htk` (default) or `slaney` (librosa's default, used by NeMo; area-normalised filters). */
  melScale?: 'htk' | 'slaney';
}

const SLANEY_STEP = 200 / 3;
const SLANEY_LOG = Math.log(6.4) / 27;
const hzToMel = (hz: number, scale: 'htk' | 'slaney'): number =>
  scale === 'htk' ? 2595 * Math.log10(1 + hz / 700) : hz < 1000 ? hz / SLANEY_STEP : 15 + Math.log(hz / 1000) / SLANEY_LOG;
const melToHz = (mel: number, scale: 'htk' | 'slaney'): number =>
  scale === 'htk' ? 700 * (10 ** (mel / 2595) - 1) : mel < 15 ? mel * SLANEY_STEP : 1000 * Math.exp((mel - 15) * SLANEY_LOG);

/** Triangular mel filters over the FFT bins 0..nFft/2. */
function melFilters(nMels: number, nFft: number, sampleRate: number, scale: 'htk' | 'slaney'): Float64Array[] {
  const bins = nFft / 2 + 1;
  const maxMel = hzToMel(sampleRate / 2, scale);
  const points = Array.from({ length: nMels + 2 }, (_, i) => melToHz((maxMel * i) / (nMels + 1), scale));
  const binHz = sampleRate / nFft;
  return Array.from({ length: nMels }, (_, m) => {
    const f = new Float64Array(bins);
    const [lo, mid, hi] = [points[m]!, points[m + 1]!, points[m + 2]!];
    for (let b = 0; b < bins; b++) {
      const hz = b * binHz;
      if (hz > lo && hz < hi) f[b] = hz <= mid ? (hz - lo) / (mid - lo) : (hi - hz) / (hi - mid);
    }
    if (scale === 'slaney') f.forEach((v, b) => (f[b] = (v * 2) / (hi - lo)));
    return f;
  });
}

/**
 * Log-mel spectrogram of 16-bit PCM: one Float32Array of `nMels` values per hop (natural log of
 * the band power, floored at 1e-10). Audio shorter than one window gives no frames.
 */
export function logMelSpectrogram(pcm: Int16Array, options: LogMelOptions = {}): Float32Array[] {
  const sampleRate = options.sampleRate ?? 16000;
  const nMels = options.nMels ?? 80;
  const win = options.winLength ?? 400;
  const hop = options.hopLength ?? 160;
  const nFft = options.nFft ?? 512;
  const pre = options.preemphasis ?? 0.97;
  const filters = melFilters(nMels, nFft, sampleRate, options.melScale ?? 'htk');
  const hann = Float64Array.from({ length: win }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / win));
  const frames: Float32Array[] = [];
  const re = new Float64Array(nFft);
  const im = new Float64Array(nFft);
  const power = new Float64Array(nFft / 2 + 1);
  for (let start = 0; start + win <= pcm.length; start += hop) {
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < win; i++) {
      const x = pcm[start + i]! / 32768;
      const prev = start + i > 0 ? pcm[start + i - 1]! / 32768 : 0;
      re[i] = (x - pre * prev) * hann[i]!;
    }
    fft(re, im);
    for (let b = 0; b < power.length; b++) power[b] = re[b]! * re[b]! + im[b]! * im[b]!;
    const frame = new Float32Array(nMels);
    filters.forEach((f, m) => {
      let e = 0;
      for (let b = 0; b < power.length; b++) if (f[b]) e += f[b]! * power[b]!;
      frame[m] = Math.log(Math.max(e, 1e-10));
    });
    frames.push(frame);
  }
  return frames;
}

/** DCT-II of log-mel frames: cepstral coefficients 1..nCeps (c0, the loudness, is left out). */
export function mfcc(frames: Float32Array[], nCeps: number): Float64Array[] {
  const nMels = frames[0]?.length ?? 0;
  return frames.map((f) => {
    const c = new Float64Array(nCeps);
    for (let k = 1; k <= nCeps; k++) {
      let s = 0;
      for (let m = 0; m < nMels; m++) s += f[m]! * Math.cos((Math.PI * k * (m + 0.5)) / nMels);
      c[k - 1] = s;
    }
    return c;
  });
}
