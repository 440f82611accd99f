/**
 * On-device CTC recogniser on onnxruntime-node for wav2vec2 / HuBERT / Conformer-CTC exports in
 * an operator-supplied folder (`CLINDOC_ASR_MODEL_DIR`): an ONNX model whose first output is
 * per-frame token scores [batch, frames, vocab], and its vocabulary (vocab.json or tokens.txt).
 *
 * The input kind is read from the model: a rank-2 input takes raw 16 kHz samples (wav2vec2:
 * `input_values`), a rank-3 input takes log-mel features (NeMo: `audio_signal` [1, 80, T]).
 * A second input named like a length (`length`, `x_lens`...) gets the sample or frame count; an
 * `attention_mask` gets ones. Long audio is cut at quiet points into pieces of at most
 * `maxChunkSec`, so memory stays bounded and word times stay absolute.
 */
import * as ort from 'onnxruntime-node';
import { join } from 'node:path';
import { engineUnavailable } from '../../../services/errors.js';
import { logMelSpectrogram } from '../../diarization/log-mel.js';
import type { RecognizedWord, SpeechRecognizer } from '../../../services/transcriptions/ports.js';
import { decodeCtcGreedy, toResult } from './ctc-decode.js';
import { findCtcModel, readFolderConfig, readJson, requireFolder, type ModelFolderConfig } from './model-folder.js';
import { modelRecognizer } from './model-recognizer.js';
import { loadVocabulary, type CtcVocabulary } from './vocabulary.js';
import { lazyModel } from '../../models/lazy-model.js';

export interface OnnxCtcOptions {
  /** Folder holding the model (env `CLINDOC_ASR_MODEL_DIR`). */
  modelDir: string;
  /** onnxruntime intra-op threads. Env `CLINDOC_ASR_THREADS`, default 1 (steadier on 2 shared cores). */
  threads?: number;
}

const SAMPLE_RATE = 16000;

interface Loaded {
  session: ort.InferenceSession;
  input: string;
  kind: 'waveform' | 'features';
  nMels: number;
  layout: 'channels_first' | 'channels_last';
  lengthInput?: string;
  maskInput?: string;
}

/** Splits PCM into pieces of at most `maxSec`, each cut at the quietest 100 ms of its last 5 s. */
export function splitAtQuiet(pcm: Int16Array, sampleRate: number, maxSec: number): Array<{ offset: number; pcm: Int16Array }> {
  const max = Math.round(maxSec * sampleRate);
  const pieces: Array<{ offset: number; pcm: Int16Array }> = [];
  let start = 0;
  while (pcm.length - start > max) {
    const win = Math.round(sampleRate * 0.1);
    const searchFrom = start + max - Math.min(Math.round(5 * sampleRate), Math.floor(max / 2));
    let cut = start + max;
    let quietest = Infinity;
    for (let s = searchFrom; s + win <= start + max; s += win) {
      let e = 0;
      for (let i = s; i < s + win; i++) e += pcm[i]! * pcm[i]!;
      if (e < quietest) [quietest, cut] = [e, s + Math.floor(win / 2)];
    }
    pieces.push({ offset: start, pcm: pcm.subarray(start, cut) });
    start = cut;
  }
  if (pcm.length > start) pieces.push({ offset: start, pcm: pcm.subarray(start) });
  return pieces;
}

function normalisedWaveform(pcm: Int16Array, normalize: boolean): Float32Array {
  const x = Float32Array.from(pcm, (v) => v / 32768);
  if (!normalize || x.length === 0) return x;
  const mean = x.reduce((s, v) => s + v, 0) / x.length;
  const variance = x.reduce((s, v) => s + (v - mean) ** 2, 0) / x.length;
  const sd = Math.sqrt(variance + 1e-7);
  return x.map((v) => (v - mean) / sd);
}

function featureTensor(pcm: Int16Array, m: Loaded, config: ModelFolderConfig): { data: Float32Array; frames: number } {
  const frames = logMelSpectrogram(pcm, { sampleRate: SAMPLE_RATE, nMels: m.nMels, melScale: config.melScale ?? 'slaney' });
  const T = frames.length;
  if ((config.normalize ?? 'per_feature') === 'per_feature' && T > 1) {
    for (let b = 0; b < m.nMels; b++) {
      let mean = 0;
      for (const f of frames) mean += f[b]! / T;
      let v = 0;
      for (const f of frames) v += (f[b]! - mean) ** 2 / (T - 1);
      const sd = Math.sqrt(v) + 1e-5;
      for (const f of frames) f[b] = (f[b]! - mean) / sd;
    }
  }
  const data = new Float32Array(T * m.nMels);
  frames.forEach((f, t) => {
    for (let b = 0; b < m.nMels; b++) {
      data[m.layout === 'channels_first' ? b * T + t : t * m.nMels + b] = f[b]!;
    }
  });
  return { data, frames: T };
}

/**
 * Creates the `onnx-ctc` recogniser. The folder and vocabulary are checked at once (a 503
 * `engine_unavailable` when missing); the model itself loads on first use.
 */
export function createOnnxCtcRecognizer(options: OnnxCtcOptions): SpeechRecognizer {
  requireFolder(options.modelDir, 'onnx-ctc');
  const config = readFolderConfig(options.modelDir);
  const modelPath = findCtcModel(options.modelDir, config);
  const vocab: CtcVocabulary = loadVocabulary(options.modelDir, config.blankId);
  const pre = readJson<{ do_normalize?: boolean }>(join(options.modelDir, 'preprocessor_config.json'));
  const doNormalize = config.doNormalize ?? pre?.do_normalize ?? true;
  const languages = config.languages ?? ['en'];
  const model = lazyModel('onnx-ctc: the model', load, (m) => m.session.release());

  async function load(): Promise<Loaded> {
    const threads = options.threads ?? 1;
    const session = await ort.InferenceSession.create(modelPath, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const meta = session.inputMetadata.filter((i) => i.isTensor) as Array<{ name: string; shape: ReadonlyArray<number | string> }>;
    const main = meta.find((i) => i.shape.length >= 2) ?? meta[0];
    if (!main) throw engineUnavailable('onnx-ctc: the model has no tensor input');
    const kind = config.input ?? (main.shape.length === 2 ? 'waveform' : 'features');
    const dim1 = main.shape[1];
    const dim2 = main.shape[2];
    const layout = config.layout ?? (typeof dim2 === 'number' && typeof dim1 !== 'number' ? 'channels_last' : 'channels_first');
    const fromShape = layout === 'channels_first' ? dim1 : dim2;
    const nMels = config.nMels ?? (typeof fromShape === 'number' ? fromShape : 80);
    const others = session.inputNames.filter((n) => n !== main.name);
    return {
      session,
      input: main.name,
      kind,
      nMels,
      layout,
      lengthInput: others.find((n) => /len/i.test(n)),
      maskInput: others.find((n) => /mask/i.test(n)),
    };
  }

  async function runPiece(m: Loaded, pcm: Int16Array, offsetSec: number): Promise<RecognizedWord[]> {
    const feeds: Record<string, ort.Tensor> = {};
    let steps: number;
    if (m.kind === 'waveform') {
      feeds[m.input] = new ort.Tensor('float32', normalisedWaveform(pcm, doNormalize), [1, pcm.length]);
      steps = pcm.length;
      if (m.maskInput) feeds[m.maskInput] = new ort.Tensor('int64', new BigInt64Array(pcm.length).fill(1n), [1, pcm.length]);
    } else {
      const { data, frames } = featureTensor(pcm, m, config);
      if (frames === 0) return [];
      feeds[m.input] = new ort.Tensor('float32', data, m.layout === 'channels_first' ? [1, m.nMels, frames] : [1, frames, m.nMels]);
      steps = frames;
      if (m.maskInput) feeds[m.maskInput] = new ort.Tensor('int64', new BigInt64Array(frames).fill(1n), [1, frames]);
    }
    if (m.lengthInput) feeds[m.lengthInput] = new ort.Tensor('int64', BigInt64Array.from([BigInt(steps)]), [1]);
    const out = await m.session.run(feeds);
    const scores = out[m.session.outputNames[0]!]!;
    const dims = scores.dims;
    const frames = dims.length === 3 ? dims[1]! : dims[0]!;
    const vocabSize = dims[dims.length - 1]!;
    if (vocabSize !== vocab.tokens.length && vocabSize < vocab.tokens.length) {
      throw engineUnavailable('onnx-ctc: the model output is smaller than its vocabulary');
    }
    if (frames === 0) return [];
    const frameSec = pcm.length / SAMPLE_RATE / frames;
    const padded: CtcVocabulary = vocabSize > vocab.tokens.length
      ? { ...vocab, tokens: [...vocab.tokens, ...new Array<string>(vocabSize - vocab.tokens.length).fill('')] }
      : vocab;
    return decodeCtcGreedy(scores.data as Float32Array, frames, vocabSize, padded, frameSec, offsetSec);
  }

  return modelRecognizer({
    name: 'onnx-ctc',
    sampleRate: SAMPLE_RATE,
    languages,
    model,
    async recognise(m, pcm) {
      const words: RecognizedWord[] = [];
      // Pieces run one after another: one onnxruntime session is not re-entrant-friendly on 2 cores.
      for (const piece of splitAtQuiet(pcm, SAMPLE_RATE, config.maxChunkSec ?? 30)) {
        if (piece.pcm.length < SAMPLE_RATE * 0.03) continue;
        words.push(...(await runPiece(m, piece.pcm, piece.offset / SAMPLE_RATE)));
      }
      return toResult(words);
    },
  });
}
