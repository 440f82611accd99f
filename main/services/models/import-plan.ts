/**
 * What an import copies and installs, decided from the listing of a file or folder (a USB stick,
 * a share) before a byte is copied: which catalog entry it is (then its files are checked against
 * the entry's hashes), or which engine runs a model the catalog does not list.
 */
import type { ModelCatalog, ModelCatalogEntry, ModelEngine, ModelTask } from '../../../shared/api/models.js';
import { invalidRequest } from '../errors.js';
import { WHISPER_REQUIRED_FILES } from './catalog.js';
import type { ImportListing } from './ports.js';

export interface ImportPlan {
  id: string;
  /** The catalog entry these files are, when known. */
  entry?: ModelCatalogEntry;
  task: ModelTask;
  engine: ModelEngine;
  title: string;
  /** Each file's path in the model folder and where it comes from (relative to the source folder; '' = the source file itself). */
  files: Array<{ path: string; from: string; bytes: number }>;
  /** Written as clindoc.json when the source has none. */
  folderConfig?: Record<string, unknown>;
}

/** Engine names: a model may not take one, or choosing it would be ambiguous. */
export const RESERVED_IDS = ['embedded', 'pocketsphinx', 'openai-compatible', 'onnx-ctc', 'onnx-whisper', 'llama-cpp'];

/** A name turned into a model id: lower case, digits and hyphens, at most 40 characters. */
export function slugId(name: string): string {
  const slug = name.toLowerCase().replace(/\.gguf$/, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug || 'imported-model';
}

function catalogPlan(listing: ImportListing, entry: ModelCatalogEntry): ImportPlan {
  const base = { id: entry.id, entry, task: entry.task, engine: entry.engine, title: entry.title, ...(entry.folderConfig ? { folderConfig: entry.folderConfig } : {}) };
  if (listing.kind === 'file') {
    if (entry.files.length !== 1) throw invalidRequest(`path: ${entry.id} is a folder of ${entry.files.length} files; import the folder`);
    return { ...base, files: [{ path: entry.files[0]!.path, from: '', bytes: listing.files[0]!.bytes }] };
  }
  const byPath = new Map(listing.files.map((f) => [f.path, f]));
  const byName = new Map<string, Array<{ path: string; bytes: number }>>();
  for (const f of listing.files) byName.set(f.path.split('/').pop()!, [...(byName.get(f.path.split('/').pop()!) ?? []), f]);
  const files: ImportPlan['files'] = [];
  const missing: string[] = [];
  for (const want of entry.files) {
    // The same layout, or a flat copy of it (a folder where someone put every file side by side).
    const found = byPath.get(want.path) ?? (byName.get(want.path.split('/').pop()!)?.length === 1 ? byName.get(want.path.split('/').pop()!)![0] : undefined);
    if (found) files.push({ path: want.path, from: found.path, bytes: found.bytes });
    else missing.push(want.path);
  }
  if (missing.length) throw invalidRequest(`path: the folder lacks ${missing.slice(0, 5).join(', ')} of ${entry.id}`);
  return { ...base, files };
}

/** The engine that runs a folder or file the catalog does not list, from its file names. */
function detectEngine(listing: ImportListing): { engine: ModelEngine; task: ModelTask } {
  const paths = listing.files.map((f) => f.path);
  if (listing.kind === 'file') {
    if (paths[0]!.toLowerCase().endsWith('.gguf')) return { engine: 'llama-cpp', task: 'text' };
    throw invalidRequest('path: a single file must be a .gguf language model (speech models are folders)');
  }
  if (WHISPER_REQUIRED_FILES.every((f) => paths.includes(f)) && paths.some((p) => /^onnx\/encoder_model.*\.onnx$/.test(p))) return { engine: 'onnx-whisper', task: 'speech' };
  if (paths.some((p) => !p.includes('/') && p.endsWith('.onnx')) && paths.some((p) => ['tokens.txt', 'vocab.json'].includes(p))) return { engine: 'onnx-ctc', task: 'speech' };
  const gguf = paths.filter((p) => p.toLowerCase().endsWith('.gguf'));
  if (gguf.length === 1 && paths.length === 1) return { engine: 'llama-cpp', task: 'text' };
  throw invalidRequest('path: cannot tell which engine runs this folder (expected a Whisper ONNX export, a CTC ONNX model with tokens.txt or vocab.json, or one .gguf file)');
}

/**
 * Decides an import. `requestedId` naming a catalog entry imports that entry; another id names a
 * model the catalog does not list; without one, a folder named like a catalog entry is that entry,
 * anything else gets an id from its name (a .gguf file whose hash matches a catalog entry is
 * recognised later, once its hash is known).
 */
export function planImport(listing: ImportListing, catalog: ModelCatalog, requestedId?: string): ImportPlan {
  if (listing.files.length === 0) throw invalidRequest('path: the folder holds no files');
  const named = catalog.entries.find((e) => e.id === (requestedId ?? slugId(listing.name)));
  if (named && (requestedId || listing.kind === 'folder')) return catalogPlan(listing, named);
  const { engine, task } = detectEngine(listing);
  const id = requestedId ?? slugId(listing.name);
  if (RESERVED_IDS.includes(id)) throw invalidRequest(`id: "${id}" is an engine name; give the model another id`);
  if (listing.kind === 'file' || engine === 'llama-cpp') {
    return { id, task, engine, title: listing.name, files: [{ path: 'model.gguf', from: listing.kind === 'file' ? '' : listing.files[0]!.path, bytes: listing.files[0]!.bytes }] };
  }
  const paths = listing.files.map((f) => f.path);
  const quantizedOnly = engine === 'onnx-whisper' && !paths.includes('onnx/encoder_model.onnx') && paths.includes('onnx/encoder_model_quantized.onnx');
  return {
    id, task, engine, title: listing.name,
    files: listing.files.map((f) => ({ path: f.path, from: f.path, bytes: f.bytes })),
    ...(quantizedOnly && !paths.includes('clindoc.json') ? { folderConfig: { dtype: 'q8' } } : {}),
  };
}
