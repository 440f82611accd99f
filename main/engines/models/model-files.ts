/**
 * The models folder (`<data folder>/models`): one folder per installed model, and `.staging/<id>`
 * beside them where downloads and imports are written. A file is written as `NAME.part`, flushed
 * (fsync) and renamed to `NAME` once complete; the staging folder moves into place in one rename
 * once every file is checked. Engines only ever load from an installed folder, so they never see
 * a half file or a half model.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { invalidRequest } from '../../services/errors.js';
import type { FileDigest, ImportListing, ModelFiles } from '../../services/models/ports.js';
import { freeBytesAt, type StatFs } from './http-download.js';

/** Most files a folder offered for import may hold (a model folder has a handful). */
const MAX_IMPORT_FILES = 500;

/** SHA-256 and size of a file, read as a stream. */
export async function digestOf(path: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Flushes a folder's entries (a rename) to disk; not possible on every platform, so best effort. */
async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a folder for fsync; its rename is already durable enough for a re-download.
  }
}

const exists = async (path: string): Promise<boolean> => stat(path).then(() => true, () => false);

export function createModelFiles(options: { root: string; statfs?: StatFs }): ModelFiles {
  const root = resolve(options.root);
  const staging = join(root, '.staging');

  /** `base/rel`, refusing any path that would leave `base` (ids and paths are checked upstream too). */
  const inside = (base: string, rel: string): string => {
    const full = resolve(base, rel);
    if (full !== base && !full.startsWith(base + sep)) throw invalidRequest('model file path leaves the model folder');
    return full;
  };
  const modelDir = (id: string): string => inside(root, id);
  const stageDir = (id: string): string => inside(staging, id);
  const finalIn = (id: string, path: string): string => inside(stageDir(id), path);

  /**
   * Folders and files here are the owner's only (0700 and 0600), as the rest of the data folder
   * (issue 29: the models folder was 0755). A folder made by an older version is narrowed once.
   */
  let rootPrivate = false;
  const privateFolder = async (dir: string): Promise<void> => {
    if (!rootPrivate) {
      await mkdir(root, { recursive: true, mode: 0o700 });
      await chmod(root, 0o700);
      rootPrivate = true;
    }
    await mkdir(dir, { recursive: true, mode: 0o700 });
  };

  const finishPart = async (id: string, path: string): Promise<FileDigest> => {
    const final = finalIn(id, path);
    const part = `${final}.part`;
    const handle = await open(part, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const digest = await digestOf(part);
    await rename(part, final);
    await syncFolder(dirname(final));
    return digest;
  };

  return {
    async freeBytes() {
      await privateFolder(root);
      return freeBytesAt(root, options.statfs);
    },
    async part(id, path) {
      const file = `${finalIn(id, path)}.part`;
      await privateFolder(dirname(file));
      return { file, bytes: await stat(file).then((s) => s.size, () => 0) };
    },
    finishPart,
    async staged(id, path) {
      const final = finalIn(id, path);
      return (await exists(final)) ? digestOf(final) : undefined;
    },
    async discardStaged(id, path) {
      if (path === undefined) return rm(stageDir(id), { recursive: true, force: true });
      const final = finalIn(id, path);
      await rm(final, { force: true });
      await rm(`${final}.part`, { force: true });
    },
    async stageCopy(id, path, source, file, signal) {
      const final = finalIn(id, path);
      const from = file ? inside(resolve(source), file) : resolve(source);
      await privateFolder(dirname(final));
      await pipeline(createReadStream(from), createWriteStream(`${final}.part`, { mode: 0o600 }), ...(signal ? [{ signal }] : []));
      return finishPart(id, path);
    },
    async stageText(id, path, text) {
      const final = finalIn(id, path);
      await privateFolder(dirname(final));
      await writeFile(`${final}.part`, text, { mode: 0o600 });
      return finishPart(id, path);
    },
    async install(id) {
      const target = modelDir(id);
      if (await exists(target)) throw invalidRequest(`a folder for ${id} is already in the models folder`);
      await rename(stageDir(id), target);
      await syncFolder(root);
    },
    async remove(id) {
      await rm(modelDir(id), { recursive: true, force: true });
      await rm(stageDir(id), { recursive: true, force: true });
    },
    async installedDigest(id, path) {
      const file = inside(modelDir(id), path);
      return (await exists(file)) ? digestOf(file) : undefined;
    },
    stagedLocation: (id) => stageDir(id),
    location: (id, file) => (file ? inside(modelDir(id), file) : modelDir(id)),
    async listImport(source): Promise<ImportListing> {
      const full = resolve(source);
      const info = await lstat(full).catch(() => undefined);
      if (!info) throw invalidRequest('path: no such file or folder on this computer');
      if (info.isFile()) return { kind: 'file', name: basename(full).replace(/\.[^.]+$/, ''), files: [{ path: basename(full), bytes: info.size }] };
      if (!info.isDirectory()) throw invalidRequest('path: must be a regular file or a folder');
      const files: ImportListing['files'] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          if (entry.name.startsWith('.')) continue;
          const path = join(dir, entry.name);
          // Links are skipped: an import copies what is in the folder, never what a link points at.
          if (entry.isDirectory()) await walk(path);
          else if (entry.isFile()) {
            if (files.length >= MAX_IMPORT_FILES) throw invalidRequest(`path: more than ${MAX_IMPORT_FILES} files; is this a model folder?`);
            files.push({ path: relative(full, path).split(sep).join('/'), bytes: (await stat(path)).size });
          }
        }
      };
      await walk(full);
      files.sort((a, b) => a.path.localeCompare(b.path));
      return { kind: 'folder', name: basename(full), files };
    },
  };
}
