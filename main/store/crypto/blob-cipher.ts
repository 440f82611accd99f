import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { KeyRing } from './key-ring.js';
import { DecryptionError } from './field-cipher.js';

/**
 * Blob files: `CDB1` | key-id length (1 byte) | key id | 12-byte IV | AES-256-GCM ciphertext |
 * 16-byte tag. One GCM stream per file (audio is at most a few hundred MB, far below GCM's
 * limit); the associated data binds the file to its blob key, so renaming files does not swap
 * recordings between transcriptions.
 */
const MAGIC = Buffer.from('CDB1');
const IV = 12;
const TAG = 16;

const aad = (blobKey: string): Buffer => Buffer.from(`blob:${blobKey}`);

/** A stream that encrypts what passes through it under the ring's active key. */
export function encryptingStream(ring: KeyRing, blobKey: string): Transform {
  const id = ring.activeKeyId;
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', ring.key(id)!, iv);
  cipher.setAAD(aad(blobKey));
  let headerSent = false;
  const header = (): Buffer => {
    headerSent = true;
    return Buffer.concat([MAGIC, Buffer.from([id.length]), Buffer.from(id, 'ascii'), iv]);
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const out = cipher.update(chunk);
      done(null, headerSent ? out : Buffer.concat([header(), out]));
    },
    flush(done) {
      const tail = Buffer.concat([cipher.final(), cipher.getAuthTag()]);
      done(null, headerSent ? tail : Buffer.concat([header(), tail]));
    },
  });
}

/** Reads a blob file's header: its key id and where the ciphertext starts; undefined if not sealed. */
export function readBlobHeader(path: string): { keyId: string; iv: Buffer; start: number; size: number } | undefined {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, 4 + 1 + 255 + IV));
    readSync(fd, head, 0, head.length, 0);
    if (head.length < 5 || !head.subarray(0, 4).equals(MAGIC)) return undefined;
    const idLength = head[4]!;
    const start = 5 + idLength + IV;
    if (size < start + TAG) return undefined;
    return { keyId: head.subarray(5, 5 + idLength).toString('ascii'), iv: head.subarray(5 + idLength, start), start, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Decrypts blob file `source` into `destination` (owner-only). The tag is checked at the end;
 * on failure the partial output is removed before the error surfaces.
 */
export async function decryptBlobFile(ring: KeyRing, blobKey: string, source: string, destination: string): Promise<void> {
  const header = readBlobHeader(source);
  if (!header) throw new DecryptionError('a blob file is not in the encrypted format');
  const key = ring.key(header.keyId);
  if (!key) throw new DecryptionError(`a blob needs key ${header.keyId}, which the key ring does not hold`);
  const tag = Buffer.alloc(TAG);
  const fd = openSync(source, 'r');
  try {
    readSync(fd, tag, 0, TAG, header.size - TAG);
  } finally {
    closeSync(fd);
  }
  const decipher = createDecipheriv('aes-256-gcm', key, header.iv);
  decipher.setAAD(aad(blobKey));
  decipher.setAuthTag(tag);
  try {
    const input = header.size - TAG > header.start ? createReadStream(source, { start: header.start, end: header.size - TAG - 1 }) : emptyStream();
    await pipeline(input, decipher, createWriteStream(destination, { mode: 0o600 }));
  } catch {
    rmSync(destination, { force: true });
    throw new DecryptionError('a blob failed authentication (tampered, truncated or moved)');
  }
}

async function* emptyStream(): AsyncGenerator<Buffer> {
  // a zero-length recording still carries its tag
}
