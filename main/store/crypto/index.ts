import { keyRingPath, resolveMasterKey, type MasterKeyRequest, type MasterKeySource } from './master-key.js';
import { openKeyRing, type KeyRing } from './key-ring.js';
import { createFieldCipher, type FieldCipher } from './field-cipher.js';

export { KeyRingError } from './key-ring.js';
export type { KeyRing } from './key-ring.js';
export { DecryptionError, type FieldCipher } from './field-cipher.js';
export { parseKey, generatedKeyPath, keyRingPath, type MasterKeySource } from './master-key.js';

export interface DataProtection {
  ring: KeyRing;
  cipher: FieldCipher;
  /** Where the master key came from (for the start-up log; never the key). */
  source: MasterKeySource;
}

/**
 * Resolves the master key and opens the data folder's key ring: what every store needs to encrypt.
 * `openedCacheMb` (CLINDOC_OPENED_CACHE_MB) is memory for values already decrypted; none by default.
 */
export function openDataProtection(request: MasterKeyRequest & { openedCacheMb?: number }): DataProtection {
  const { key, source } = resolveMasterKey(request);
  const ring = openKeyRing(keyRingPath(request.ringDir ?? request.dataDir), key);
  // Characters, at about two bytes each in memory.
  const cacheChars = Math.floor(((request.openedCacheMb ?? 0) * 1024 * 1024) / 2);
  return { ring, cipher: createFieldCipher(ring, { cacheChars }), source };
}
