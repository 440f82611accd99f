/**
 * On-device Whisper through `@huggingface/transformers` (transformers.js), which runs Whisper
 * ONNX exports on onnxruntime-node. Remote downloads are switched off: the model is read only from
 * the operator's folder (`CLINDOC_ASR_MODEL_DIR`), laid out like the Hugging Face ONNX exports
 * (`onnx-community/whisper-*`, Xenova/whisper-*):
 *   config.json, generation_config.json, preprocessor_config.json, tokenizer.json,
 *   tokenizer_config.json, onnx/encoder_model.onnx, onnx/decoder_model_merged.onnx
 *   (`_quantized` file names with `"dtype": "q8"` in clindoc.json).
 *
 * Audio is cut at quiet points into pieces of at most 30 s (Whisper's window); each piece is
 * decoded greedily with timestamp tokens, so words get times from the segment they fall in,
 * spread by length. Word confidence is the mean probability the model gave its tokens, read from
 * the logits at each step by a logits processor that changes nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { engineUnavailable } from '../../../services/errors.js';
import type { RecognizedWord, SpeechRecognizer } from '../../../services/transcriptions/ports.js';
import { toResult } from './ctc-decode.js';
import { splitAtQuiet } from './ctc-recognizer.js';
import { readFolderConfig, readJson, requireFolder } from './model-folder.js';
import { modelRecognizer } from './model-recognizer.js';
import { lazyModel } from '../../models/lazy-model.js';

export interface OnnxWhisperOptions {
  /** Folder holding the Whisper export (env `CLINDOC_ASR_MODEL_DIR`). */
  modelDir: string;
  /** onnxruntime intra-op threads. Env `CLINDOC_ASR_THREADS`, default 1. */
  threads?: number;
}

const SAMPLE_RATE = 16000;
const REQUIRED = ['config.json', 'generation_config.json', 'preprocessor_config.json', 'tokenizer.json'];

/** The slice of transformers.js this adapter uses; its own typings are far wider. */
interface Tokenizer { decode(ids: number[], opts?: { skip_special_tokens?: boolean }): string }
interface Processor { (audio: Float32Array): Promise<{ input_features: unknown }>; tokenizer: Tokenizer }
interface WhisperModel {
  generate(args: Record<string, unknown>): Promise<{ tolist(): bigint[][] } | { sequences: { tolist(): bigint[][] } }>;
  dispose(): Promise<unknown>;
}
interface Loaded {
  processor: Processor;
  model: WhisperModel;
  makeRecorder: () => { probs: number[] };
  timestampBegin: number;
  eos: number;
}

/** Splits decoded pieces into timed words: a piece that starts with a space starts a word. */
function piecesToWords(pieces: Array<{ text: string; prob: number }>, start: number, end: number): RecognizedWord[] {
  const words: Array<{ text: string; probs: number[] }> = [];
  for (const p of pieces) {
    if (/^\s/.test(p.text) || words.length === 0) words.push({ text: p.text.trim(), probs: [p.prob] });
    else {
      words[words.length - 1]!.text += p.text;
      words[words.length - 1]!.probs.push(p.prob);
    }
  }
  const kept = words
    .map((w) => ({ word: w.text.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''), probs: w.probs, len: Math.max(1, w.text.length) }))
    .filter((w) => w.word.length > 0);
  const chars = kept.reduce((n, w) => n + w.len, 0);
  let t = start;
  return kept.map((w) => {
    const d = chars ? ((end - start) * w.len) / chars : 0;
    const word = { word: w.word, start: t, end: t + d, confidence: w.probs.reduce((s, p) => s + p, 0) / w.probs.length };
    t += d;
    return word;
  });
}

/**
 * Creates the `onnx-whisper` recogniser. The folder's files are checked at once (503
 * `engine_unavailable` when missing); transformers.js and the model load on first use.
 */
export function createOnnxWhisperRecognizer(options: OnnxWhisperOptions): SpeechRecognizer {
  requireFolder(options.modelDir, 'onnx-whisper');
  for (const f of REQUIRED) {
    if (!existsSync(join(options.modelDir, f))) throw engineUnavailable(`onnx-whisper: model folder has no ${f}`);
  }
  const config = readFolderConfig(options.modelDir) as { dtype?: string; languages?: string[] };
  const generation = readJson<{ lang_to_id?: Record<string, number>; is_multilingual?: boolean }>(join(options.modelDir, 'generation_config.json')) ?? {};
  const multilingual = generation.is_multilingual ?? Boolean(generation.lang_to_id);
  const languages = config.languages ?? (multilingual ? Object.keys(generation.lang_to_id ?? {}).map((k) => k.replace(/[<|>]/g, '')) : ['en']);
  const loaded = lazyModel('onnx-whisper: the model', load, async (m) => {
    await m.model.dispose();
  });

  async function load(): Promise<Loaded> {
    const hf = await import('@huggingface/transformers');
    // Never reach a model hub: the library's defaults would fetch missing files from the network.
    hf.env.allowRemoteModels = false;
    hf.env.allowLocalModels = true;
    const threads = options.threads ?? 1;
    const common = { local_files_only: true } as const;
    const processor = (await hf.AutoProcessor.from_pretrained(options.modelDir, common)) as unknown as Processor;
    const model = (await hf.WhisperForConditionalGeneration.from_pretrained(options.modelDir, {
      ...common,
      device: 'cpu',
      dtype: (config.dtype ?? 'fp32') as 'fp32',
      session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
    })) as unknown as WhisperModel;
    const genConfig = (model as unknown as { generation_config: { no_timestamps_token_id: number; eos_token_id: number | number[] } }).generation_config;
    class ConfidenceRecorder extends hf.LogitsProcessor {
      probs: number[] = [];
      private last: Float32Array | null = null;
      // Called with the raw logits of each step; the token chosen at step n is the last input id at step n + 1.
      override _call(inputIds: bigint[][], logits: unknown): unknown {
        const ids = inputIds[0]!;
        if (this.last) this.probs.push(this.last[Number(ids[ids.length - 1])] ?? 0);
        const row = (logits as Array<{ data: Float32Array }>)[0]!.data;
        let max = -Infinity;
        for (const v of row) if (v > max) max = v;
        const p = new Float32Array(row.length);
        let sum = 0;
        for (let i = 0; i < row.length; i++) sum += p[i] = Math.exp(row[i]! - max);
        for (let i = 0; i < row.length; i++) p[i]! /= sum;
        this.last = p;
        return logits;
      }
    }
    const eos = Array.isArray(genConfig.eos_token_id) ? genConfig.eos_token_id[0]! : genConfig.eos_token_id;
    return { processor, model, makeRecorder: () => new ConfidenceRecorder(), timestampBegin: genConfig.no_timestamps_token_id + 1, eos };
  }

  async function transcribePiece(m: Loaded, pcm: Int16Array, offset: number, language: string): Promise<{ words: RecognizedWord[]; text: string }> {
    const audio = Float32Array.from(pcm, (v) => v / 32768);
    const { input_features } = await m.processor(audio);
    const recorder = m.makeRecorder();
    const out = await m.model.generate({
      inputs: input_features,
      ...(multilingual ? { language, task: 'transcribe' } : {}),
      return_timestamps: true,
      // A set max_new_tokens keeps transformers.js from its own 30 s seek loop: pieces are ours.
      max_new_tokens: 440,
      logits_processor: [recorder],
    });
    const seq = ('sequences' in out ? out.sequences : out).tolist()[0]!.map(Number);
    // Generated tokens follow the prompt; the recorder saw one step per generated token.
    const generated = seq.slice(seq.length - recorder.probs.length - 1);
    const probs = [...recorder.probs, 1];
    const words: RecognizedWord[] = [];
    const duration = pcm.length / SAMPLE_RATE;
    let segStart: number | null = null;
    let pieces: Array<{ text: string; prob: number }> = [];
    let text = '';
    const flush = (end: number): void => {
      if (pieces.length) words.push(...piecesToWords(pieces, offset + (segStart ?? 0), offset + Math.max(end, segStart ?? 0)));
      pieces = [];
    };
    generated.forEach((id, i) => {
      if (id === m.eos) return;
      if (id >= m.timestampBegin) {
        const t = Math.min(duration, (id - m.timestampBegin) * 0.02);
        if (pieces.length) { flush(t); segStart = null; } else segStart = t;
        return;
      }
      const piece = m.processor.tokenizer.decode([id], { skip_special_tokens: true });
      if (piece) {
        pieces.push({ text: piece, prob: probs[i]! });
        text += piece;
      }
    });
    flush(duration);
    return { words, text: text.trim() };
  }

  return modelRecognizer({
    name: 'onnx-whisper',
    sampleRate: SAMPLE_RATE,
    languages,
    model: loaded,
    async recognise(m, pcm, opts) {
      const language = opts.language.toLowerCase().split(/[-_]/)[0]!;
      const words: RecognizedWord[] = [];
      const texts: string[] = [];
      for (const piece of splitAtQuiet(pcm, SAMPLE_RATE, 30)) {
        if (piece.pcm.length < SAMPLE_RATE * 0.1) continue;
        const r = await transcribePiece(m, piece.pcm, piece.offset / SAMPLE_RATE, language);
        words.push(...r.words);
        if (r.text) texts.push(r.text);
      }
      // Whisper writes cased, punctuated text: keep it as the text, words stay bare for matching.
      return { ...toResult(words), text: texts.join(' ') };
    },
  });
}
