import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyRingError } from './key-ring.js';

/** Where the master key came from; reported at start-up (never the key itself). */
export type MasterKeySource = 'keychain' | 'environment' | 'generated-file';

/** The generated fallback: the master key beside the data, owner-only. */
export const generatedKeyPath = (dataDir: string): string => join(dataDir, 'encryption.key');
/** The key ring of data-encryption keys, each sealed under the master key. */
export const keyRingPath = (dataDir: string): string => join(dataDir, 'keyring.json');

/**
 * Parses a 32-byte key written as 64 hex digits or as base64/base64url (43 or 44 characters).
 * Returns undefined for anything else, so callers can name the variable in their error.
 */
export function parseKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === 32) return key;
  }
  return undefined;
}

export interface MasterKeyRequest {
  dataDir: string;
  /** Folder of the key ring when it is not the data folder (CLINDOC_SHARED_DIR: one ring for every instance). */
  ringDir?: string;
  /** A key handed in by the desktop app (Electron safeStorage / OS keychain). Wins over the rest. */
  keychainKey?: Buffer;
  /** CLINDOC_ENCRYPTION_KEY, already validated by the configuration loader. */
  environmentKey?: string;
  /** Called once, when a key is generated into the data folder. */
  warn(message: string): void;
}

/**
 * Chooses the master key: the OS keychain's (desktop), then CLINDOC_ENCRYPTION_KEY (headless),
 * then a key generated into the data folder with owner-only permissions. The last keeps the key
 * beside the data it protects, which guards a copied database but not a copied folder: the
 * warning says so once, when the key is made.
 */
export function resolveMasterKey(request: MasterKeyRequest): { key: Buffer; source: MasterKeySource } {
  if (request.keychainKey) {
    if (request.keychainKey.length !== 32) throw new KeyRingError('the keychain encryption key must be 32 bytes');
    return { key: request.keychainKey, source: 'keychain' };
  }
  if (request.environmentKey) {
    const key = parseKey(request.environmentKey);
    if (!key) throw new KeyRingError('CLINDOC_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64');
    return { key, source: 'environment' };
  }
  const path = generatedKeyPath(request.dataDir);
  if (existsSync(path)) {
    const key = parseKey(readFileSync(path, 'utf8'));
    if (!key) throw new KeyRingError(`${path} does not hold a 32-byte key`);
    return { key, source: 'generated-file' };
  }
  const key = randomBytes(32);
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  request.warn(
    `generated a data encryption key at ${path} (owner-only). It sits beside the data it protects: set CLINDOC_ENCRYPTION_KEY ` +
      'from a secret store, or run the desktop app (OS keychain), for protection against a copied data folder; back the key up',
  );
  return { key, source: 'generated-file' };
}
