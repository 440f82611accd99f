import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { KeyRing } from './key-ring.js';

/**
 * AES-256-GCM for text columns. A sealed value reads `enc:v1:<keyId>:<base64 iv|tag|ciphertext>`.
 * The associated data names the table, column and row, so a sealed value copied into another
 * row or account fails to open instead of being served there.
 */
export interface FieldCipher {
  /** Encrypts with the active key. `context` is `table.column:rowKey`. */
  seal(plaintext: string, context: string): string;
  /** Decrypts; a value written before encryption existed (no prefix) is returned as is. */
  open(stored: string, context: string): string;
  /** True when the value is plaintext or sealed under a key other than the active one. */
  needsReseal(stored: string): boolean;
  /** The key id a sealed value names, or undefined for plaintext. */
  keyIdOf(stored: string): string | undefined;
  readonly ring: KeyRing;
}

const PREFIX = 'enc:v1:';
const SEALED = /^enc:v1:([A-Za-z0-9_-]{1,64}):([A-Za-z0-9+/]+={0,2})$/;
const IV = 12;
const TAG = 16;

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

export interface FieldCipherOptions {
  /**
   * Memory for values already opened, in characters of plaintext (0: none). A sealed value names
   * its random IV, so the same sealed text in the same context always opens to the same plaintext:
   * a value read again (a note polled, a visit reopened) is answered from memory instead of paying
   * for AES-GCM set-up again, and a changed row never hits, because its sealed text is new.
   */
  cacheChars?: number;
  /** How long an opened value is kept unused, in milliseconds (default five minutes). */
  cacheTtlMs?: number;
}

interface Opened {
  context: string;
  plaintext: string;
}

/** Creates the column cipher over a key ring. */
export function createFieldCipher(ring: KeyRing, options: FieldCipherOptions = {}): FieldCipher {
  const keyIdOf = (stored: string): string | undefined => (stored.startsWith(PREFIX) ? SEALED.exec(stored)?.[1] : undefined);
  const cacheChars = options.cacheChars ?? 0;
  const opened = cacheChars > 0
    ? new LRUCache<string, Opened>({
      maxSize: cacheChars,
      sizeCalculation: (value, key) => Math.max(1, value.plaintext.length + key.length),
      ttl: options.cacheTtlMs ?? 5 * 60_000,
      // Kept only while used: an idle value leaves memory after the ttl, read or not.
      ttlAutopurge: true,
    })
    : undefined;
  /** The key id of a sealed value, without the full pattern check (that ran when it was first opened). */
  const sealedKeyId = (stored: string): string => stored.slice(PREFIX.length, stored.indexOf(':', PREFIX.length));
  return {
    ring,
    seal(plaintext, context) {
      const id = ring.activeKeyId;
      const iv = randomBytes(IV);
      const c = createCipheriv('aes-256-gcm', ring.key(id)!, iv);
      c.setAAD(Buffer.from(context));
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      const stored = `${PREFIX}${id}:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
      // What was just written is usually read next (a note finished, then fetched).
      opened?.set(stored, { context, plaintext });
      return stored;
    },
    open(stored, context) {
      if (!stored.startsWith(PREFIX)) return stored;
      const known = opened?.get(stored);
      // Same sealed text, same context, and its key still in the ring (a retired key opens nothing).
      if (known && known.context === context && ring.key(sealedKeyId(stored))) return known.plaintext;
      const match = SEALED.exec(stored);
      if (!match) throw new DecryptionError(`a sealed value in ${context.split(':')[0]} is malformed`);
      const key = ring.key(match[1]!);
      // Messages name the column and key id only: never the value.
      if (!key) throw new DecryptionError(`a value in ${context.split(':')[0]} needs key ${match[1]}, which the key ring does not hold`);
      const raw = Buffer.from(match[2]!, 'base64');
      try {
        const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV));
        d.setAAD(Buffer.from(context));
        d.setAuthTag(raw.subarray(IV, IV + TAG));
        const plaintext = Buffer.concat([d.update(raw.subarray(IV + TAG)), d.final()]).toString('utf8');
        opened?.set(stored, { context, plaintext });
        return plaintext;
      } catch {
        throw new DecryptionError(`a value in ${context.split(':')[0]} failed authentication (tampered or moved)`);
      }
    },
    needsReseal: (stored) => keyIdOf(stored) !== ring.activeKeyId,
    keyIdOf,
  };
}

/** Context of a row addressed by a global id. */
export const rowContext = (column: string, id: string): string => `${column}:${id}`;
/** Context of a row addressed by (account, id): both go in, so ids reused across accounts differ. */
export const accountRowContext = (column: string, accountId: string, id: string): string => `${column}:${JSON.stringify([accountId, id])}`;
