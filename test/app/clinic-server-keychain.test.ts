import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClinicServerVault, clinicServerVaultPath } from '../../main/app/clinic-server-vault.js';
import type { SafeStorageLike } from '../../main/app/keychain-key.js';
import {
  CLINIC_SERVER_KEY, clearClinicServer, keychainStorage, readClinicServer, saveClinicServer, type ClinicServer,
} from '../../renderer/api/clinic-server.js';
import type { ClinicServerVault } from '../../shared/bridge.js';
import { MemoryStorage } from '../support/memory-storage.js';

/**
 * The desktop keeps a clinic server's API key in the OS keychain (issue 29). Electron's safeStorage
 * cannot run here (no Electron binary), so a stand-in seals with AES-GCM under a key only it holds,
 * as the keychain would; the vault (main/app), the bridge's shape and the renderer's storage are the
 * real ones. The IPC between them (preload, ipcMain) is type-checked only.
 */
const osKey = randomBytes(32);
const keychain: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  encryptString(text) {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', osKey, iv);
    const sealed = Buffer.concat([c.update(text, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), sealed]);
  },
  decryptString(buf) {
    const d = createDecipheriv('aes-256-gcm', osKey, buf.subarray(0, 12));
    d.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString('utf8');
  },
};

const SERVER: ClinicServer = { baseUrl: 'https://clindoc.clinic.example', accountId: 'acct_clinic', apiKey: 'cdk_SECRETKEYZEBRAFISHQUOKKA' };

describe('the clinic server\'s key in the OS keychain', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'clindoc-vault-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** The vault as the renderer sees it through the preload bridge (async, like ipcRenderer.invoke). */
  const bridgeTo = (vault: ReturnType<typeof createClinicServerVault>): ClinicServerVault => ({
    load: async () => vault.load(),
    save: async (value) => void vault.save(value),
  });

  it('keeps the choice sealed, owner-only, out of localStorage, across restarts; forgetting it removes the file', async () => {
    const local = new MemoryStorage();
    const storage = await keychainStorage(bridgeTo(createClinicServerVault(keychain, dataDir)), local);
    saveClinicServer(storage, SERVER);
    await new Promise((r) => setImmediate(r)); // the bridge's save is on its way, as over IPC
    expect(local.getItem(CLINIC_SERVER_KEY)).toBeNull();
    const file = clinicServerVaultPath(dataDir);
    expect(readFileSync(file).includes(Buffer.from('SECRETKEYZEBRAFISHQUOKKA'))).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // The next start reads it back through a fresh vault.
    const again = await keychainStorage(bridgeTo(createClinicServerVault(keychain, dataDir)), local);
    expect(readClinicServer(again)).toEqual(SERVER);
    // Other settings still live in the page's storage.
    again.setItem('clindoc.prefs', '{"language":"en"}');
    expect(local.getItem('clindoc.prefs')).toBe('{"language":"en"}');

    clearClinicServer(again);
    await new Promise((r) => setImmediate(r));
    expect(existsSync(file)).toBe(false);
    expect(readClinicServer(await keychainStorage(bridgeTo(createClinicServerVault(keychain, dataDir)), local))).toBeUndefined();
  });

  it('moves a key an earlier version left in localStorage into the keychain', async () => {
    const local = new MemoryStorage();
    local.setItem(CLINIC_SERVER_KEY, JSON.stringify(SERVER));
    const storage = await keychainStorage(bridgeTo(createClinicServerVault(keychain, dataDir)), local);
    expect(local.getItem(CLINIC_SERVER_KEY)).toBeNull();
    expect(readClinicServer(storage)).toEqual(SERVER);
    expect(createClinicServerVault(keychain, dataDir).load()).toBe(JSON.stringify(SERVER));
  });

  it('main refuses what is not a clinic server record, and without a keychain keeps the choice for this run only', () => {
    const vault = createClinicServerVault(keychain, dataDir);
    for (const bad of [42, '{}', '{"baseUrl":"x","accountId":"y","apiKey":"z","extra":1}', 'not json', 'x'.repeat(5000)]) {
      expect(() => vault.save(bad)).toThrow(/not a clinic server record/);
    }
    const bare = createClinicServerVault({ ...keychain, isEncryptionAvailable: () => false }, dataDir);
    expect(bare.save(JSON.stringify(SERVER))).toEqual({ kept: 'session' });
    expect(existsSync(clinicServerVaultPath(dataDir))).toBe(false);
    expect(bare.load()).toBe(JSON.stringify(SERVER));
    expect(createClinicServerVault({ ...keychain, isEncryptionAvailable: () => false }, dataDir).load()).toBeNull();
  });
});
