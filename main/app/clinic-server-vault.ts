import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SafeStorageLike } from './keychain-key.js';

/** The chosen clinic server and its API key, sealed by the OS keychain, in the data folder. */
export const clinicServerVaultPath = (dataDir: string): string => join(dataDir, 'clinic-server.safe');

/** Most bytes a saved clinic server may take (an address, an account id and a key). */
const MAX_RECORD_CHARS = 4096;

/**
 * Where the desktop keeps the clinic server the physician chose in Settings, API key included
 * (issue 29): sealed with Electron safeStorage (DPAPI, Keychain, libsecret) instead of the
 * interface's localStorage, which any code running in the page, and anyone reading the profile
 * folder, could read. The renderer reaches it only through the preload bridge, and main checks
 * what it is handed. Without a keychain nothing is written: the choice lasts until the app quits.
 */
export function createClinicServerVault(safeStorage: SafeStorageLike, dataDir: string) {
  const path = clinicServerVaultPath(dataDir);
  /** What this run was handed when there is no keychain to keep it in. */
  let unsealed: string | null = null;
  return {
    /** The saved record (the renderer's JSON), or null when none is saved or it cannot be opened. */
    load(): string | null {
      if (!safeStorage.isEncryptionAvailable()) return unsealed;
      if (!existsSync(path)) return null;
      try {
        return safeStorage.decryptString(readFileSync(path));
      } catch {
        return null; // sealed under another user's keychain, or damaged: chosen again in Settings
      }
    },
    /** Saves a record (null forgets it); refuses anything that is not a clinic server's JSON. */
    save(value: unknown): { kept: 'keychain' | 'session' | 'forgotten' } {
      if (value === null) {
        unsealed = null;
        rmSync(path, { force: true });
        return { kept: 'forgotten' };
      }
      if (typeof value !== 'string' || value.length > MAX_RECORD_CHARS || !isClinicServerJson(value)) {
        throw new Error('not a clinic server record');
      }
      if (!safeStorage.isEncryptionAvailable()) {
        unsealed = value;
        return { kept: 'session' };
      }
      writeFileSync(path, safeStorage.encryptString(value), { mode: 0o600 });
      chmodSync(path, 0o600);
      return { kept: 'keychain' };
    },
  };
}

function isClinicServerJson(value: string): boolean {
  try {
    const v = JSON.parse(value) as Record<string, unknown>;
    return ['baseUrl', 'accountId', 'apiKey'].every((k) => typeof v[k] === 'string') && Object.keys(v).length === 3;
  } catch {
    return false;
  }
}
