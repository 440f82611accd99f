/**
 * `clindoc models bench ID [--audio FILE]`: measures an installed model on this computer, so the
 * speed a clinic reads is its own and names where it came from. A language model writes 128
 * tokens from a fixed prompt (no patient data): load time, generation tokens per second, memory. A
 * speech model transcribes a recording the operator gives (a few minutes of dictation): real-time
 * factor and memory. The result is stored beside the model (`bench.json`, with date and machine)
 * and shown by `clindoc models list`; a model removed takes its figures with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { ClindocConfig } from '../config.js';
import { DomainError } from '../services/errors.js';
import type { InstalledModelRecord } from '../services/models/ports.js';
import { createLlamaCppModel } from '../engines/llm/llama-cpp.js';
import { createOnnxCtcRecognizer, createOnnxWhisperRecognizer } from '../engines/speech/onnx/index.js';
import { createFfmpegDecoder } from '../engines/audio/index.js';

/** A figure measured here, with when and on what. */
export interface BenchResult {
  id: string;
  engine: string;
  date: string;
  machine: string;
  loadSeconds: number;
  /** Resident memory the process gained while the model was loaded and working (MB). */
  memoryMb: number;
  /** Language models: generated tokens per second over `tokens` tokens. */
  tokensPerSecond?: number;
  tokens?: number;
  /** Speech models: seconds of computing per second of audio, over `audioSeconds`. */
  realTimeFactor?: number;
  audioSeconds?: number;
}

const PROMPT = 'Explain in plain words, in about one hundred words, how a bicycle gear changes the effort of pedalling.';
const FILE = 'bench.json';
const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
const machine = (): string => `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB`;
const rssMb = (): number => process.memoryUsage().rss / 1e6;

/** The figures stored for a model's folder, if it was measured. */
export function readBench(modelFolder: string): BenchResult | undefined {
  try {
    return JSON.parse(readFileSync(join(modelFolder, FILE), 'utf8')) as BenchResult;
  } catch {
    return undefined;
  }
}

/** One line for `models list`: the measured speed and its date, or that none was measured. */
export function benchLine(bench: BenchResult | undefined): string {
  if (!bench) return 'speed not measured here (clindoc models bench ID)';
  const speed = bench.tokensPerSecond !== undefined ? `${bench.tokensPerSecond} tokens/s` : `real-time factor ${bench.realTimeFactor}`;
  return `measured here ${bench.date}: ${speed}, ${bench.memoryMb} MB`;
}

/** Measures `model` (installed) and stores the result in its folder. */
export async function benchModel(config: ClindocConfig, model: InstalledModelRecord & { location: string }, folder: string, audio?: string): Promise<BenchResult> {
  const base = { id: model.id, engine: model.engine, date: new Date().toISOString().slice(0, 10), machine: machine() };
  const before = rssMb();
  let result: BenchResult;
  if (model.engine === 'llama-cpp') {
    const llm = createLlamaCppModel({ modelPath: model.location, ...(config.llmThreads ? { threads: config.llmThreads } : {}), ...(config.llmContextSize ? { contextSize: config.llmContextSize } : {}) });
    try {
      const t0 = performance.now();
      await llm.load!();
      const t1 = performance.now();
      const answer = await llm.complete({ system: 'You are a helpful assistant.', user: PROMPT, maxTokens: 128, temperature: 0 });
      const seconds = (performance.now() - t1) / 1000;
      const tokens = answer.tokens?.completion ?? 0;
      result = { ...base, loadSeconds: round((t1 - t0) / 1000), memoryMb: Math.round(rssMb() - before), tokens, tokensPerSecond: round(tokens / seconds, 1) };
    } finally {
      await llm.close?.();
    }
  } else {
    if (!audio) throw new DomainError('invalid_request', `${model.id} is a speech model: measure it on a recording, clindoc models bench ${model.id} --audio FILE (a few minutes of dictation)`);
    const decoded = await createFfmpegDecoder({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, timeoutMs: config.ffmpegTimeoutMs, maxSeconds: config.maxAudioSeconds })
      .decodeFile(audio, { sampleRate: 16000, keepChannels: false });
    const pcm = decoded.channels[0]!;
    const options = { modelDir: model.location, ...(config.asrThreads ? { threads: config.asrThreads } : {}) };
    const recognizer = model.engine === 'onnx-ctc' ? createOnnxCtcRecognizer(options) : createOnnxWhisperRecognizer(options);
    try {
      const t0 = performance.now();
      await recognizer.load?.();
      const t1 = performance.now();
      await recognizer.transcribe(pcm, { language: 'en' });
      const seconds = (performance.now() - t1) / 1000;
      result = { ...base, loadSeconds: round((t1 - t0) / 1000), memoryMb: Math.round(rssMb() - before), audioSeconds: round(decoded.durationSec, 1), realTimeFactor: round(seconds / decoded.durationSec, 3) };
    } finally {
      await recognizer.close?.();
    }
  }
  writeFileSync(join(folder, FILE), `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
