import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { BlobStore } from '../services/storage.js';
import { payloadTooLarge } from '../services/errors.js';

/**
 * Blobs as files under one folder (owner-only permissions). Writes stream to disk and stop
 * as soon as `maxBytes` is passed, so an oversized upload is never held in memory.
 */
export function createFileBlobStore(root: string): BlobStore {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const pathOf = (key: string): string => {
    if (!/^[a-f0-9-]{36}$/.test(key)) throw new Error('invalid blob key');
    return join(root, key);
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
        await pipeline(source as NodeJS.ReadableStream, limiter, createWriteStream(path, { mode: 0o600 }));
      } catch (err) {
        rmSync(path, { force: true });
        throw err;
      }
      return { key, bytes };
    },
    pathOf,
    exists: (key) => existsSync(pathOf(key)),
    delete: (key) => rmSync(pathOf(key), { force: true }),
  };
}
