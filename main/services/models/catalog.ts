/**
 * The model catalog: recommended models as data (`resources/models/catalog.json`, or a clinic's own
 * list through CLINDOC_MODEL_CATALOG), read once by composition and checked here. A catalog that
 * breaks a rule is refused as a whole with the rule it broke, so a typo never becomes a half-working
 * download.
 */
import { Ajv } from 'ajv';
import { EngineQualityFile, ModelCatalog, type ModelCatalogEntry } from '../../../shared/api/models.js';

export type { ModelCatalog, ModelCatalogEntry, ModelCatalogFile } from '../../../shared/api/models.js';

/** Files the onnx-whisper engine needs in its folder (main/engines/speech/onnx/whisper-recognizer.ts). */
export const WHISPER_REQUIRED_FILES = ['config.json', 'generation_config.json', 'preprocessor_config.json', 'tokenizer.json'];

const ajv = new Ajv({ allErrors: false, strict: false });
const validate = ajv.compile(ModelCatalog);
const validateQuality = ajv.compile(EngineQualityFile);

/** Checks the measured-quality file (`resources/models/quality.json`); throws naming the first problem. */
export function parseQuality(value: unknown): EngineQualityFile {
  if (!validateQuality(value)) {
    const e = validateQuality.errors?.[0];
    throw new Error(`engine quality file: ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`);
  }
  return value as EngineQualityFile;
}

/** The rules a catalog entry must keep beyond its schema; empty when it keeps them all. */
export function entryProblems(entry: ModelCatalogEntry): string[] {
  const problems: string[] = [];
  const paths = entry.files.map((f) => f.path);
  if (new Set(paths).size !== paths.length) problems.push('a file path is listed twice');
  if (paths.some((p) => p.split('/').some((part) => part === '..' || part === '.'))) problems.push('a file path leaves the model folder');
  // The schema requires a publisher SHA-256 on every file; an entry whose publisher states none is left out.
  if (entry.files.some((f) => !f.sha256Source.startsWith('https://'))) problems.push("a sha256Source must be the publisher's https page");
  if (entry.files.some((f) => f.bytes !== undefined && Math.abs(f.bytes - f.approxBytes) > f.approxBytes * 0.01)) problems.push('bytes and approxBytes disagree by more than 1%');
  if (entry.engine === 'llama-cpp' && (entry.files.length !== 1 || !paths[0]!.endsWith('.gguf'))) problems.push('a llama-cpp model is exactly one .gguf file');
  if (entry.engine === 'llama-cpp' && entry.task !== 'text') problems.push('llama-cpp runs text models');
  if (entry.engine.startsWith('onnx-') && entry.task !== 'speech') problems.push(`${entry.engine} runs speech models`);
  if (entry.engine === 'onnx-whisper') {
    for (const f of WHISPER_REQUIRED_FILES) if (!paths.includes(f)) problems.push(`onnx-whisper needs ${f}`);
    if (!paths.some((p) => /^onnx\/encoder_model.*\.onnx$/.test(p)) || !paths.some((p) => /^onnx\/decoder_model_merged.*\.onnx$/.test(p))) {
      problems.push('onnx-whisper needs onnx/encoder_model*.onnx and onnx/decoder_model_merged*.onnx');
    }
  }
  return problems;
}

/** Checks a parsed catalog file; throws an Error naming the first entry and rule it breaks. */
export function parseCatalog(value: unknown): ModelCatalog {
  if (!validate(value)) {
    const e = validate.errors?.[0];
    throw new Error(`model catalog: ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`);
  }
  const catalog = value as ModelCatalog;
  const seen = new Set<string>();
  for (const entry of catalog.entries) {
    if (seen.has(entry.id)) throw new Error(`model catalog: id "${entry.id}" is listed twice`);
    seen.add(entry.id);
    const problems = entryProblems(entry);
    if (problems.length) throw new Error(`model catalog: ${entry.id}: ${problems.join('; ')}`);
  }
  return catalog;
}

/**
 * A file's download address through a mirror: the mirror replaces the scheme and host, the path
 * is kept (`https://huggingface.co/a/b` through `http://mirror.local/models` is
 * `http://mirror.local/models/a/b`), so a clinic mirrors by copying files to the same paths.
 */
export function mirrorUrl(url: string, mirror?: string): string {
  if (!mirror) return url;
  const parsed = new URL(url);
  return `${mirror.replace(/\/+$/, '')}${parsed.pathname}${parsed.search}`;
}

/** Bytes to download for an entry: exact sizes where stated, else the publisher's rounded listing. */
export function expectedBytes(entry: Pick<ModelCatalogEntry, 'files'>): number | undefined {
  let total = 0;
  for (const f of entry.files) {
    total += f.bytes ?? f.approxBytes;
  }
  return total > 0 ? total : undefined;
}
