import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedKeyPath, parseKey } from '../store/crypto/master-key.js';

/** The part of Electron's `safeStorage` this needs (kept structural so tests need no Electron). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** The master key, sealed by the OS keychain (DPAPI, Keychain, libsecret), in the data folder. */
export const keychainKeyPath = (dataDir: string): string => join(dataDir, 'encryption.key.safe');

/**
 * The desktop app's master encryption key, kept by the operating system's keychain through
 * Electron safeStorage. Created on first start; a key generated earlier by a headless run is
 * moved under the keychain and its plaintext file removed. Returns undefined when the OS offers
 * no keychain (for example Linux without a secret service), so the composition falls back to
 * the generated key file and warns.
 */
export function loadKeychainKey(safeStorage: SafeStorageLike, dataDir: string): Buffer | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const sealedPath = keychainKeyPath(dataDir);
  if (existsSync(sealedPath)) {
    const key = parseKey(safeStorage.decryptString(readFileSync(sealedPath)));
    if (!key) throw new Error(`${sealedPath} does not hold a 32-byte key`);
    return key;
  }
  const plainPath = generatedKeyPath(dataDir);
  const key = existsSync(plainPath) ? parseKey(readFileSync(plainPath, 'utf8')) : randomBytes(32);
  if (!key) throw new Error(`${plainPath} does not hold a 32-byte key`);
  writeFileSync(sealedPath, safeStorage.encryptString(key.toString('base64')), { mode: 0o600 });
  chmodSync(sealedPath, 0o600);
  // The key now lives under the keychain only: the plaintext copy beside the data goes.
  rmSync(plainPath, { force: true });
  return key;
}
