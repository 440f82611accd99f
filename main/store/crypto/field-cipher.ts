import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
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

/** Creates the column cipher over a key ring. */
export function createFieldCipher(ring: KeyRing): FieldCipher {
  const keyIdOf = (stored: string): string | undefined => (stored.startsWith(PREFIX) ? SEALED.exec(stored)?.[1] : undefined);
  return {
    ring,
    seal(plaintext, context) {
      const id = ring.activeKeyId;
      const iv = randomBytes(IV);
      const c = createCipheriv('aes-256-gcm', ring.key(id)!, iv);
      c.setAAD(Buffer.from(context));
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return `${PREFIX}${id}:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
    },
    open(stored, context) {
      if (!stored.startsWith(PREFIX)) return stored;
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
        return Buffer.concat([d.update(raw.subarray(IV + TAG)), d.final()]).toString('utf8');
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
