import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { access, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { BlobStore } from '../services/storage.js';
import { payloadTooLarge } from '../services/errors.js';
import type { KeyRing } from './crypto/key-ring.js';
import { decryptBlobFile, encryptingStream, readBlobHeader } from './crypto/blob-cipher.js';

/** The file blob store plus what only the composition and the CLI need: plaintext access and re-encryption. */
export interface EncryptedBlobStore extends BlobStore {
  /** The blob key of a path returned by `pathOf`, or undefined. */
  keyOf(path: string): string | undefined;
  /**
   * Decrypts a blob into a private temporary folder (RAM-backed /dev/shm where there is one),
   * runs `fn` on that path and removes the copy afterwards, whatever happens. Engines such as
   * ffmpeg need a seekable file; the copy lives only while they run.
   */
  withPlaintext<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  /** Every blob key on disk. */
  keys(): string[];
  /** Key id a blob is sealed under; undefined for a file written before encryption. */
  keyIdOf(key: string): string | undefined;
  /** Rewrites one blob under the active key (atomic rename). */
  reencrypt(key: string): Promise<void>;
  /**
   * Removes files left in the temporary folder by a writer that died (power cut, SIGKILL) once
   * they are older than `maxAgeMs` (default a day, far beyond any upload, so another host's
   * write in progress is never touched). Returns how many were removed. A store's first write,
   * and its first write of each hour after that, runs it too.
   */
  sweepTemp(now?: number, maxAgeMs?: number): Promise<number>;
}

/**
 * Where a blob store keeps its files. Both adapters share every other line: a blob is written
 * under a temporary name in `tempDir`, flushed, and renamed to `fileOf(key)`, so a reader (this
 * process, another process, another host on the same share) sees the whole file or none.
 */
export interface BlobLayout {
  /** Final path of a valid blob key. */
  fileOf(key: string): string;
  /** Folder for files being written; on the same file system as every final path, so rename is atomic. */
  tempDir: string;
  /** Every blob key stored. */
  keys(): string[];
}

/** Blob keys are UUIDs; nothing else is ever joined into a path. */
export const BLOB_KEY = /^[a-f0-9-]{36}$/;
// host-pid-random.part: the host and pid say who was writing when one is left behind.
const TEMP_FILE = /^[A-Za-z0-9_.-]*-\d+-[a-f0-9]{16}\.part$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
// Where a directory cannot be opened or flushed (Windows, some SMB clients) the rename stands as is.
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP', 'EBADF']);

/** RAM-backed /dev/shm where there is one, else the OS temp folder. */
function plaintextBase(): string {
  const shm = '/dev/shm';
  try {
    if (existsSync(shm) && statSync(shm).isDirectory()) return shm;
  } catch {
    // fall back to the OS temp folder
  }
  return tmpdir();
}

// Plaintext copies live in `clindoc-<pid>-<random>`: the process that made one is named, so a copy
// left by a process that was killed (SIGKILL, power cut of a worker) can be found and removed.
const PLAINTEXT_DIR = /^clindoc-(\d+)-[A-Za-z0-9]{6}$/;

function privateTempDir(): string {
  try {
    return mkdtempSync(join(plaintextBase(), `clindoc-${process.pid}-`));
  } catch {
    return mkdtempSync(join(tmpdir(), `clindoc-${process.pid}-`));
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
};

/**
 * Removes decrypted audio copies whose process is gone: a worker killed during recognition leaves
 * its copy behind, and decrypted patient audio must not outlive the work that needed it. Only this
 * machine's folders are looked at (they are never shared); copies of live processes are kept.
 */
export function sweepPlaintextCopies(): number {
  let removed = 0;
  for (const base of new Set([plaintextBase(), tmpdir()])) {
    let names: string[];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = PLAINTEXT_DIR.exec(name)?.[1];
      if (!pid || Number(pid) === process.pid || alive(Number(pid))) continue;
      rmSync(join(base, name), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

function tempName(): string {
  const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  return `${host}-${process.pid}-${randomBytes(8).toString('hex')}.part`;
}

/** Flushes a folder's entries (a rename) to stable storage where the platform allows it. */
async function syncDir(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch (err) {
    if (!DIR_SYNC_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await handle?.close();
  }
}

/**
 * Writes a file atomically: `fill` streams into a new temporary file in `tempDir`, which is
 * flushed to disk, renamed to `target` (replacing any file there) and the target's folder is
 * flushed, along with any folders created for it. On failure the temporary file is removed and
 * nothing appears at `target`.
 */
async function writeAtomically(tempDir: string, target: string, fill: (out: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  const temp = join(tempDir, tempName());
  try {
    await fill(createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
    // fsync works per file, not per descriptor: the data the stream wrote and closed reaches the disk (or the NFS server) here.
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const created = await mkdir(dirname(target), { recursive: true, mode: 0o700 });
    await rename(temp, target);
    // New fan-out folders must be durable too, or a crash could lose the entry that leads to the file.
    const folders = [dirname(target)];
    if (created) {
      const top = dirname(resolve(created));
      for (let dir = resolve(dirname(target)); dir !== top && dir !== dirname(dir); dir = dirname(dir)) folders.push(dirname(dir));
    }
    for (const dir of folders) await syncDir(dir);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * An encrypted blob store over `layout`: AES-256-GCM under the key ring's active key, owner-only
 * files, atomic writes. Writes stream to disk and stop as soon as `maxBytes` of plaintext is
 * passed, so an oversized upload is never held in memory.
 */
export function createLayoutBlobStore(layout: BlobLayout, ring: KeyRing): EncryptedBlobStore {
  mkdirSync(layout.tempDir, { recursive: true, mode: 0o700 });
  sweepPlaintextCopies();
  const pathOf = (key: string): string => {
    if (!BLOB_KEY.test(key)) throw new Error('invalid blob key');
    return layout.fileOf(key);
  };
  const withPlaintext = async <T>(key: string, fn: (path: string) => Promise<T>): Promise<T> => {
    const path = pathOf(key);
    // A file from before encryption existed is already plaintext; `data reencrypt` seals it.
    if (!readBlobHeader(path)) return fn(path);
    const dir = privateTempDir();
    try {
      const copy = join(dir, 'audio');
      await decryptBlobFile(ring, key, path, copy);
      return await fn(copy);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const sweepTemp = async (now = Date.now(), maxAgeMs = DAY_MS): Promise<number> => {
    let removed = 0;
    for (const name of await readdir(layout.tempDir).catch(() => [] as string[])) {
      if (!TEMP_FILE.test(name)) continue;
      const path = join(layout.tempDir, name);
      // Gone already (its writer finished, or another host swept it): nothing to do.
      const info = await stat(path).catch(() => undefined);
      if (info && now - info.mtimeMs > maxAgeMs) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  };
  let lastSweep = 0;
  return {
    async write(source, maxBytes) {
      const t = Date.now();
      if (t - lastSweep > HOUR_MS) {
        lastSweep = t;
        await sweepTemp(t);
      }
      const key = randomUUID();
      let bytes = 0;
      const limiter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) done(payloadTooLarge(`audio exceeds the ${maxBytes} byte limit`));
          else done(null, chunk);
        },
      });
      await writeAtomically(layout.tempDir, pathOf(key), (out) => pipeline(source as NodeJS.ReadableStream, limiter, encryptingStream(ring, key), out));
      return { key, bytes };
    },
    pathOf,
    // async, so a malformed key rejects like a failed read instead of throwing at the call.
    exists: async (key) => access(pathOf(key)).then(() => true, () => false),
    delete: async (key) => rm(pathOf(key), { force: true }),
    keyOf(path) {
      const key = basename(path);
      return BLOB_KEY.test(key) && pathOf(key) === path ? key : undefined;
    },
    withPlaintext,
    keys: () => layout.keys(),
    keyIdOf: (key) => readBlobHeader(pathOf(key))?.keyId,
    async reencrypt(key) {
      const path = pathOf(key);
      await withPlaintext(key, (plain) => writeAtomically(layout.tempDir, path, (out) => pipeline(createReadStream(plain), encryptingStream(ring, key), out)));
    },
    sweepTemp,
  };
}

/**
 * Blobs as files directly under one local folder (`<root>/<uuid>`, owner-only), the layout of a
 * desktop's data folder and its backups. Files being written wait in the same folder under a
 * `.part` name, which is never a key, so the folder holds nothing else once writes finish.
 */
export function createFileBlobStore(root: string, ring: KeyRing): EncryptedBlobStore {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  return createLayoutBlobStore({
    fileOf: (key) => join(root, key),
    tempDir: root,
    keys: () => readdirSync(root).filter((name) => BLOB_KEY.test(name)),
  }, ring);
}
