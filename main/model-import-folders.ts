/**
 * Where `POST /v1/models/import` may read from (CLINDOC_MODEL_IMPORT_DIRS). The API's import reads
 * a path on the server's disk with the server's rights; without a bound, a key holder could have it
 * read any file the service may, and tell from the answers which files exist (issue 29: an absent
 * file and a present one answered differently). The CLI's `models import` is not confined: it runs
 * with the rights of whoever types it.
 */
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { invalidRequest } from './services/errors.js';
import type { ModelService } from './services/models/model-service.js';

/** One answer for absent, unreadable, and leading-outside (a link): which of them it was stays unsaid. */
const UNREADABLE = 'path: no model file or folder Clindoc can read is at that path in the import folders';

const within = (path: string, folder: string): boolean => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The real path of `path` when it names a readable file or folder inside one of `folders` (links
 * followed, so a link inside pointing out is refused). A path outside every folder is refused for
 * what it says, before the disk is touched; every other failure gives the same answer.
 */
export async function confineImportPath(path: string, folders: readonly string[]): Promise<string> {
  if (!isAbsolute(path)) throw invalidRequest('path: must be an absolute path');
  const lexical = resolve(path);
  if (!folders.some((f) => within(lexical, resolve(f)))) {
    throw invalidRequest('path: must be inside a folder models are imported from (CLINDOC_MODEL_IMPORT_DIRS)');
  }
  const roots = (await Promise.all(folders.map((f) => realpath(f).catch(() => undefined)))).filter((r): r is string => r !== undefined);
  try {
    const real = await realpath(lexical);
    if (!roots.some((root) => within(real, root))) throw new Error('outside');
    // Read, not just stat: a file the service cannot open must answer as an absent one does. Only
    // files and folders: opening a FIFO would wait for a writer.
    const kind = await stat(real);
    if (kind.isDirectory()) await readdir(real);
    else if (kind.isFile()) await (await open(real, 'r')).close();
    else throw new Error('not a file');
    return real;
  } catch {
    throw invalidRequest(UNREADABLE);
  }
}

/** The model service with its imports confined to `folders`. */
export function confineModelImports(service: ModelService, folders: readonly string[]): ModelService {
  return { ...service, importFrom: async (path, id) => service.importFrom(await confineImportPath(path, folders), id) };
}
