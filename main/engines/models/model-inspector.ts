/**
 * Reads a model's own header before an import is accepted: a GGUF file's metadata and tensor table
 * (@huggingface/gguf), an ONNX graph loaded by onnxruntime. A file that only ends in `.gguf` or
 * `.onnx` is refused here, naming what is wrong, instead of failing later when an account picks it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gguf, GGMLFileQuantizationType, GGMLQuantizationType } from '@huggingface/gguf';
import * as ort from 'onnxruntime-node';
import type { ModelEngine, ModelInspection } from '../../../shared/api/models.js';
import { UnusableModelError, type ModelInspector } from '../../services/models/ports.js';

/** The GGUF file's own words: architecture, parameters summed over tensors, file type (quantisation). */
export async function inspectGguf(file: string): Promise<ModelInspection> {
  const size = (await stat(file)).size;
  const parsed = await gguf(file, { allowLocalFile: true, computeParametersCount: true }).catch((err: unknown) => {
    // The library's message names the fault ("not starting with GGUF magic number"); no path is in it.
    throw new UnusableModelError(`not a GGUF model: ${(err as Error).message.replace(/^not a valid gguf file: /, '')}`);
  });
  const metadata = parsed.metadata as Record<string, unknown>;
  const architecture = metadata['general.architecture'];
  if (typeof architecture !== 'string' || !architecture) throw new UnusableModelError('not a GGUF model: its header names no architecture');
  if (parsed.tensorInfos.length === 0) throw new UnusableModelError('not a GGUF model: its header lists no tensors');
  // A header copied onto a cut-off file lists tensors whose data lies past its end.
  const lastOffset = parsed.tensorInfos.reduce((max, t) => (t.offset > max ? t.offset : max), 0n);
  if (BigInt(parsed.tensorDataOffset) + lastOffset >= BigInt(size)) throw new UnusableModelError('the GGUF file is cut short: its tensors lie past the end of the file');
  return { format: 'gguf', architecture, parameters: parsed.parameterCount, quantisation: ggufQuantisation(metadata, parsed.tensorInfos.map((t) => t.dtype)) };
}

/** The file type the converter recorded (general.file_type), else the tensors' most common type. */
function ggufQuantisation(metadata: Record<string, unknown>, dtypes: number[]): string | null {
  const fileType = metadata['general.file_type'];
  if (typeof fileType === 'number' && GGMLFileQuantizationType[fileType]) return GGMLFileQuantizationType[fileType].replace(/^MOSTLY_/, '');
  const counts = new Map<number, number>();
  for (const d of dtypes) counts.set(d, (counts.get(d) ?? 0) + 1);
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return common === undefined ? null : (GGMLQuantizationType[common] ?? null);
}

/** Loads each ONNX graph in onnxruntime (then lets it go): a file that does not load is no model. */
export async function inspectOnnx(folder: string, files: string[]): Promise<ModelInspection> {
  const graphs = files.filter((f) => f.endsWith('.onnx'));
  if (graphs.length === 0) throw new UnusableModelError('the folder holds no .onnx file');
  for (const graph of graphs) {
    let session: ort.InferenceSession | undefined;
    try {
      session = await ort.InferenceSession.create(join(folder, graph));
    } catch {
      throw new UnusableModelError(`${graph} is not an ONNX graph onnxruntime can load`);
    } finally {
      await session?.release();
    }
  }
  const config = files.includes('config.json') ? await readJson(join(folder, 'config.json')) : undefined;
  const clindoc = files.includes('clindoc.json') ? await readJson(join(folder, 'clindoc.json')) : undefined;
  const architecture = typeof config?.model_type === 'string' ? config.model_type : 'onnx';
  const quantised = graphs.some((g) => /quantized|int8|q8/i.test(g)) || clindoc?.dtype === 'q8';
  // onnxruntime does not expose a graph's weights, so the parameter count is not claimed.
  return { format: 'onnx', architecture, parameters: null, quantisation: quantised ? '8-bit' : null };
}

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    throw new UnusableModelError(`${path.split(/[\\/]/).pop()} is not valid JSON`);
  }
}

export function createModelInspector(): ModelInspector {
  return {
    inspect(engine: ModelEngine, folder: string, files: string[]) {
      if (engine === 'llama-cpp') {
        const model = files.find((f) => f.endsWith('.gguf'));
        if (!model) return Promise.reject(new UnusableModelError('no .gguf file'));
        return inspectGguf(join(folder, model));
      }
      return inspectOnnx(folder, files);
    },
  };
}
