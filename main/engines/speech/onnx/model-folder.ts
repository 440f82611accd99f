/**
 * Reads an operator-supplied model folder (`CLINDOC_ASR_MODEL_DIR`): which ONNX file to load and
 * the optional `clindoc.json` that overrides what cannot be read from the model itself.
 * Paths are not patient data, but errors still name only the file kind, not the operator's path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { engineUnavailable } from '../../../services/errors.js';

/** `clindoc.json` in a model folder; every field is optional. */
export interface ModelFolderConfig {
  /** ONNX file of a CTC model. Default `model.onnx`, else `model.int8.onnx`, else the only `.onnx` file. */
  model?: string;
  /** Languages the model recognises (`en`, `de`...). Default `["en"]`. */
  languages?: string[];
  /** `waveform` (wav2vec2: raw samples in) or `features` (Conformer-CTC: log-mel in). Default: from the input's rank. */
  input?: 'waveform' | 'features';
  /** Mel bands for `features`. Default: from the input's shape, else 80. */
  nMels?: number;
  /** `channels_first` = [batch, mels, frames] (NeMo), `channels_last` = [batch, frames, mels]. Default: from the input's shape. */
  layout?: 'channels_first' | 'channels_last';
  /** Mel scale of the features. Default `slaney` (NeMo, librosa). */
  melScale?: 'htk' | 'slaney';
  /** Feature normalisation: `per_feature` (each band to zero mean, unit variance; NeMo) or `none`. Default `per_feature`. */
  normalize?: 'per_feature' | 'none';
  /** Waveform models: zero-mean unit-variance input. Default: `do_normalize` of preprocessor_config.json, else true. */
  doNormalize?: boolean;
  /** Blank token id when the vocabulary does not name it. */
  blankId?: number;
  /** Longest piece of audio given to the model at once, seconds. Default 30. */
  maxChunkSec?: number;
}

/** Throws a 503 when the folder is missing, so a misconfigured engine fails at start-up. */
export function requireFolder(modelDir: string, engine: string): void {
  if (!modelDir || !existsSync(modelDir) || !statSync(modelDir).isDirectory()) {
    throw engineUnavailable(`${engine}: model folder (CLINDOC_ASR_MODEL_DIR) does not exist`);
  }
}

export function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (err) {
    throw engineUnavailable(`model folder file ${path.split('/').pop()} is not valid JSON`);
  }
}

export function readFolderConfig(modelDir: string): ModelFolderConfig {
  return readJson<ModelFolderConfig>(join(modelDir, 'clindoc.json')) ?? {};
}

/** Path of the CTC model's ONNX file. */
export function findCtcModel(modelDir: string, config: ModelFolderConfig): string {
  const candidates = config.model ? [config.model] : ['model.onnx', 'model.int8.onnx'];
  for (const c of candidates) if (existsSync(join(modelDir, c))) return join(modelDir, c);
  const onnx = readdirSync(modelDir).filter((f) => f.endsWith('.onnx'));
  if (!config.model && onnx.length === 1) return join(modelDir, onnx[0]!);
  throw engineUnavailable('onnx-ctc: model folder has no model.onnx (or name it in clindoc.json "model")');
}

/** True when `language` (`en`, `en-US`) is one of `languages`. */
export function supportsLanguage(languages: string[], language: string): boolean {
  const base = language.toLowerCase().split(/[-_]/)[0]!;
  return languages.some((l) => l.toLowerCase().split(/[-_]/)[0] === base);
}
