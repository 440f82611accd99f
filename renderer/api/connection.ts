import type { DesktopBridge } from '../../shared/bridge.js';
import type { Connection } from './types.js';

export type { DesktopBridge };

/** Key under which browser credentials are kept (sessionStorage, or localStorage when remembered). */
export const CREDENTIALS_KEY = 'clindoc.credentials';

export type ConnectionSource = 'desktop' | 'link' | 'stored';

export interface ConnectionEnv {
  bridge?: DesktopBridge | undefined;
  /** The page URL's fragment, e.g. `#account=...&key=...` (fragments never reach a server or its logs). */
  hash: string;
  session: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  local: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Removes the credentials from the address bar once read. */
  clearHash(): void;
}

function parseStored(raw: string | null): { accountId: string; apiKey: string } | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as { accountId?: unknown; apiKey?: unknown };
    return typeof v.accountId === 'string' && typeof v.apiKey === 'string' && v.accountId && v.apiKey ? { accountId: v.accountId, apiKey: v.apiKey } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the credentials of the local API. In Electron the preload bridge hands them over. In a
 * plain browser a page cannot read them from disk (any web page could then read the key), so the
 * user pastes them in Settings; they are kept in sessionStorage (gone when the tab closes)
 * unless the user asks to remember them on this computer (localStorage). A `#account=&key=`
 * fragment prefills them for tests and links, and is removed from the address bar at once.
 */
export async function resolveConnection(env: ConnectionEnv): Promise<{ connection: Connection; source: ConnectionSource } | undefined> {
  if (env.bridge) {
    const c = await env.bridge.connection();
    if (c.accountId && c.apiKey) return { connection: { baseUrl: c.baseUrl, accountId: c.accountId, apiKey: c.apiKey }, source: 'desktop' };
  }
  const fragment = new URLSearchParams(env.hash.replace(/^#/, ''));
  const account = fragment.get('account');
  const key = fragment.get('key');
  if (account && key) {
    env.session.setItem(CREDENTIALS_KEY, JSON.stringify({ accountId: account, apiKey: key }));
    env.clearHash();
    return { connection: { baseUrl: '', accountId: account, apiKey: key }, source: 'link' };
  }
  const stored = parseStored(env.session.getItem(CREDENTIALS_KEY)) ?? parseStored(env.local.getItem(CREDENTIALS_KEY));
  return stored ? { connection: { baseUrl: '', ...stored }, source: 'stored' } : undefined;
}

/** Keeps browser-entered credentials: for this tab only, or on this computer when `remember`. */
export function storeCredentials(env: Pick<ConnectionEnv, 'session' | 'local'>, creds: { accountId: string; apiKey: string }, remember: boolean): void {
  const raw = JSON.stringify(creds);
  env.session.setItem(CREDENTIALS_KEY, raw);
  if (remember) env.local.setItem(CREDENTIALS_KEY, raw);
  else env.local.removeItem(CREDENTIALS_KEY);
}

/** Forgets browser-entered credentials everywhere. */
export function forgetCredentials(env: Pick<ConnectionEnv, 'session' | 'local'>): void {
  env.session.removeItem(CREDENTIALS_KEY);
  env.local.removeItem(CREDENTIALS_KEY);
}
