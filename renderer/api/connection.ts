import type { DesktopBridge } from '../../shared/bridge.js';
import { readClinicServer } from './clinic-server.js';
import type { Connection } from './types.js';

export type { DesktopBridge };

/** Key under which browser credentials are kept (sessionStorage, or localStorage when remembered). */
export const CREDENTIALS_KEY = 'clindoc.credentials';
/** Set in localStorage by "Sign out": the desktop's own credentials are not used again until "Sign in". */
export const SIGNED_OUT_KEY = 'clindoc.signedOut';

/** Where the credentials came from; 'clinic' is a clinic server chosen in Settings instead of the local API. */
export type ConnectionSource = 'desktop' | 'link' | 'stored' | 'clinic';

export interface ConnectionEnv {
  bridge?: DesktopBridge | undefined;
  /** The page URL's fragment, e.g. `#token=...` of a sign-in link (fragments never reach a server or its logs). */
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

/** A sign-in link that could not be used (expired, used, or the API refused it); the message says what to do. */
export class SignInLinkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInLinkError';
  }
}

/** Trades a sign-in link's single-use token for the local credentials (`POST /v1/sign-in`, same origin only). */
async function exchangeToken(token: string, fetchImpl: typeof fetch): Promise<{ accountId: string; apiKey: string }> {
  let res: Response;
  try {
    res = await fetchImpl('/v1/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  } catch {
    throw new SignInLinkError('The local API cannot be reached to use the sign-in link. Is Clindoc running?');
  }
  const body = (await res.json().catch(() => undefined)) as { data?: { accountId?: unknown; apiKey?: unknown } } | undefined;
  const creds = body?.data;
  if (!res.ok || typeof creds?.accountId !== 'string' || typeof creds.apiKey !== 'string') {
    throw new SignInLinkError('This sign-in link has expired or was already used. Paste the two lines Clindoc printed (or run `clindoc credentials`) below.');
  }
  return { accountId: creds.accountId, apiKey: creds.apiKey };
}

/**
 * Finds the credentials of the local API. In Electron the preload bridge hands them over. In a
 * plain browser a page cannot read them from disk (any web page could then read the key): the
 * one-click link `npm run serve` prints carries a single-use token in its fragment (`#token=`),
 * which is taken out of the address bar at once and traded for the credentials; or the user
 * pastes them in Settings. They are remembered on this computer (localStorage of the local API's
 * own origin) until "Sign out", unless the user unticks Remember when pasting them (then
 * sessionStorage, gone when the tab closes). After "Sign out" the desktop bridge's credentials
 * are not used either until the physician signs in again. The API key itself never travels
 * in a URL. A clinic server chosen in Settings comes before all of these: once chosen, every call
 * goes there until the physician switches back to this computer.
 */
export async function resolveConnection(env: ConnectionEnv, fetchImpl: typeof fetch = (...a) => fetch(...a)): Promise<{ connection: Connection; source: ConnectionSource } | undefined> {
  const clinic = readClinicServer(env.local);
  if (clinic) {
    const linked = new URLSearchParams(env.hash.replace(/^#/, '')).get('token');
    if (linked) {
      // A sign-in link opened while a clinic server is in use: out of the address bar at once, and
      // traded for this computer's credentials so that Use this computer works later; a spent or
      // expired link does not keep the clinic server from being used.
      env.clearHash();
      await exchangeToken(linked, fetchImpl).then((creds) => env.session.setItem(CREDENTIALS_KEY, JSON.stringify(creds)), () => undefined);
    }
    return { connection: { ...clinic, clinic: true }, source: 'clinic' };
  }
  if (env.bridge && !env.local.getItem(SIGNED_OUT_KEY)) {
    const c = await env.bridge.connection();
    if (c.accountId && c.apiKey) return { connection: { baseUrl: c.baseUrl, accountId: c.accountId, apiKey: c.apiKey }, source: 'desktop' };
  }
  const token = new URLSearchParams(env.hash.replace(/^#/, '')).get('token');
  if (token) {
    // Out of the address bar before anything else, so neither a used token nor a failure stays there.
    env.clearHash();
    const creds = await exchangeToken(token, fetchImpl);
    // Remembered on this computer by default: the link works once, and the physician should not meet
    // the key form again on the next start. localStorage belongs to this origin alone (the local
    // API's own page), so no other web page can read it; "Sign out" removes it.
    storeCredentials(env, creds, true);
    return { connection: { baseUrl: '', ...creds }, source: 'link' };
  }
  const stored = parseStored(env.session.getItem(CREDENTIALS_KEY)) ?? parseStored(env.local.getItem(CREDENTIALS_KEY));
  return stored ? { connection: { baseUrl: '', ...stored }, source: 'stored' } : undefined;
}

/**
 * Reads credentials from pasted text: the two lines Clindoc prints ("X-ACCOUNT-ID: …",
 * "X-API-KEY: …", in any order, with or without other text around them) or the JSON of
 * `local-credentials.json`. Whatever is not found is left out.
 */
export function parseCredentialLines(text: string): { accountId?: string; apiKey?: string } {
  try {
    const v = JSON.parse(text) as { accountId?: unknown; apiKey?: unknown };
    if (v && typeof v === 'object') {
      return { ...(typeof v.accountId === 'string' ? { accountId: v.accountId } : {}), ...(typeof v.apiKey === 'string' ? { apiKey: v.apiKey } : {}) };
    }
  } catch {
    // not JSON: the printed lines
  }
  const account = /X-ACCOUNT-ID\s*:\s*([^\s"',]+)/i.exec(text)?.[1];
  const key = /X-API-KEY\s*:\s*([^\s"',]+)/i.exec(text)?.[1];
  return { ...(account ? { accountId: account } : {}), ...(key ? { apiKey: key } : {}) };
}

/**
 * A paste into an account-id or key field: when the text holds the printed lines (or the JSON),
 * fills both fields and keeps the paste itself out of the field; otherwise the paste goes on as usual.
 */
export function pasteCredentials(
  e: { clipboardData: { getData(type: string): string }; preventDefault(): void },
  set: { accountId(value: string): void; apiKey(value: string): void },
): void {
  const found = parseCredentialLines(e.clipboardData.getData('text'));
  if (!found.accountId && !found.apiKey) return;
  e.preventDefault();
  if (found.accountId) set.accountId(found.accountId);
  if (found.apiKey) set.apiKey(found.apiKey);
}

/** Keeps browser-entered credentials: for this tab only, or on this computer when `remember`. */
export function storeCredentials(env: Pick<ConnectionEnv, 'session' | 'local'>, creds: { accountId: string; apiKey: string }, remember: boolean): void {
  const raw = JSON.stringify(creds);
  env.local.removeItem(SIGNED_OUT_KEY);
  env.session.setItem(CREDENTIALS_KEY, raw);
  if (remember) env.local.setItem(CREDENTIALS_KEY, raw);
  else env.local.removeItem(CREDENTIALS_KEY);
}

/** Forgets browser-entered credentials everywhere. */
export function forgetCredentials(env: Pick<ConnectionEnv, 'session' | 'local'>): void {
  env.session.removeItem(CREDENTIALS_KEY);
  env.local.removeItem(CREDENTIALS_KEY);
}

/** "Sign out": forgets the credentials and keeps the desktop's own from being used until "Sign in". */
export function signOut(env: Pick<ConnectionEnv, 'session' | 'local'>): void {
  forgetCredentials(env);
  env.local.setItem(SIGNED_OUT_KEY, '1');
}

/** Whether the physician signed out on this computer (and has not signed in since). */
export const signedOut = (env: Pick<ConnectionEnv, 'local'>): boolean => Boolean(env.local.getItem(SIGNED_OUT_KEY));
