/**
 * The clinic server the interface may use instead of this computer's local API: its address and
 * the physician's credentials there. In the desktop app it is kept by the OS keychain through the
 * preload bridge (`keychainStorage`), so the API key never rests in the page's storage; in a plain
 * browser, which has no keychain, in localStorage beside the other settings. Either way a reload,
 * the desktop window and the dictation bar all find the same choice.
 */
import type { ClinicServerVault } from '../../shared/bridge.js';

/** Key under which the chosen clinic server is kept (localStorage). */
export const CLINIC_SERVER_KEY = 'clindoc.clinicServer';

export interface ClinicServer {
  /** Origin (and optional path prefix) of the clinic's Clindoc, without a trailing slash. */
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

type Storage_ = Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem'>>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks a typed server address and returns it without a trailing slash, or the reason it cannot
 * be used. Notes travel to that server, so it must be HTTPS; plain HTTP is accepted only on this
 * computer's loopback address (a tunnel, a test).
 */
export function normalizeServerUrl(text: string): { baseUrl: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { error: 'Type the server address in full, like https://clindoc.clinic.example.' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return { error: 'The clinic server must be reached over HTTPS (http:// only for 127.0.0.1 or localhost).' };
  }
  if (url.username || url.password || url.search || url.hash) {
    return { error: 'The address must not carry a user name, password, query or fragment: the key goes in its own field.' };
  }
  return { baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** The saved clinic server, or undefined when this computer's local API is used. */
export function readClinicServer(storage: Pick<Storage, 'getItem'>): ClinicServer | undefined {
  const raw = storage.getItem(CLINIC_SERVER_KEY);
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<Record<keyof ClinicServer, unknown>>;
    if (typeof v.baseUrl !== 'string' || typeof v.accountId !== 'string' || typeof v.apiKey !== 'string' || !v.accountId || !v.apiKey) return undefined;
    const url = normalizeServerUrl(v.baseUrl);
    return 'baseUrl' in url ? { baseUrl: url.baseUrl, accountId: v.accountId, apiKey: v.apiKey } : undefined;
  } catch {
    return undefined;
  }
}

export function saveClinicServer(storage: Storage_, server: ClinicServer): void {
  storage.setItem(CLINIC_SERVER_KEY, JSON.stringify(server));
}

export function clearClinicServer(storage: Storage_): void {
  if (storage.removeItem) storage.removeItem(CLINIC_SERVER_KEY);
  else storage.setItem(CLINIC_SERVER_KEY, '');
}

/**
 * The page's storage with the clinic-server entry held by the desktop's keychain instead: read
 * once at start (the interface reads it synchronously), written through to main at each change.
 * An entry an earlier version left in localStorage moves into the keychain and leaves localStorage.
 */
export async function keychainStorage(vault: ClinicServerVault, local: Storage_): Promise<Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>> {
  let held = await vault.load();
  const legacy = local.getItem(CLINIC_SERVER_KEY);
  if (legacy) {
    if (!held) {
      await vault.save(legacy);
      held = legacy;
    }
    clearClinicServer(local);
  }
  const keep = (value: string | null): void => {
    held = value;
    // A refused or failed save leaves this run's choice in memory only; the next start asks again.
    void vault.save(value).catch(() => undefined);
  };
  return {
    getItem: (key) => (key === CLINIC_SERVER_KEY ? held : local.getItem(key)),
    setItem: (key, value) => (key === CLINIC_SERVER_KEY ? keep(value || null) : local.setItem(key, value)),
    removeItem: (key) => (key === CLINIC_SERVER_KEY ? keep(null) : local.removeItem?.(key)),
  };
}

/** What is shown of a saved key: enough to tell two keys apart, never enough to use one. */
export function maskKey(apiKey: string): string {
  return apiKey.length <= 8 ? '••••' : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

/** The server's host as a physician reads it in the header (`clinic.example`, `127.0.0.1:8443`). */
export function serverLabel(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
