import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { access, rm } from 'node:fs/promises';
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
}

const KEY = /^[a-f0-9-]{36}$/;

function privateTempDir(): string {
  const shm = '/dev/shm';
  let base = tmpdir();
  try {
    if (existsSync(shm) && statSync(shm).isDirectory()) base = shm;
  } catch {
    // fall back to the OS temp folder
  }
  try {
    return mkdtempSync(join(base, 'clindoc-'));
  } catch {
    return mkdtempSync(join(tmpdir(), 'clindoc-'));
  }
}

/**
 * Blobs as files under one folder (owner-only permissions), encrypted with AES-256-GCM under the
 * key ring's active key. Writes stream to disk and stop as soon as `maxBytes` of plaintext is
 * passed, so an oversized upload is never held in memory.
 */
export function createFileBlobStore(root: string, ring: KeyRing): EncryptedBlobStore {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const pathOf = (key: string): string => {
    if (!KEY.test(key)) throw new Error('invalid blob key');
    return join(root, key);
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
  return {
    async write(source, maxBytes) {
      const key = randomUUID();
      const path = pathOf(key);
      let bytes = 0;
      const limiter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) done(payloadTooLarge(`audio exceeds the ${maxBytes} byte limit`));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(source as NodeJS.ReadableStream, limiter, encryptingStream(ring, key), createWriteStream(path, { mode: 0o600 }));
      } catch (err) {
        rmSync(path, { force: true });
        throw err;
      }
      return { key, bytes };
    },
    pathOf,
    // async, so a malformed key rejects like a failed read instead of throwing at the call.
    exists: async (key) => access(pathOf(key)).then(() => true, () => false),
    delete: async (key) => rm(pathOf(key), { force: true }),
    keyOf(path) {
      const key = basename(path);
      return KEY.test(key) && pathOf(key) === path ? key : undefined;
    },
    withPlaintext,
    keys: () => readdirSync(root).filter((name) => KEY.test(name)),
    keyIdOf: (key) => readBlobHeader(pathOf(key))?.keyId,
    async reencrypt(key) {
      const path = pathOf(key);
      const next = `${path}.reencrypt`;
      try {
        await withPlaintext(key, (plain) => pipeline(createReadStream(plain), encryptingStream(ring, key), createWriteStream(next, { mode: 0o600 })));
        renameSync(next, path);
      } catch (err) {
        rmSync(next, { force: true });
        throw err;
      }
    },
  };
}
