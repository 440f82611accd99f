/**
 * One-click sign-in for the interface served to a browser (`npm run serve` prints the link, as
 * Jupyter does). The link carries a short-lived, single-use token in the URL fragment, never the
 * API key: a fragment is not sent to any server, not logged and not in a Referer, and the app
 * removes it from the address bar at once. The app exchanges the token, once, for the local
 * credentials (the account and key kept in `local-credentials.json`).
 *
 * What a web page on another origin could try, and why it fails: it cannot read this tab's
 * address or storage (same-origin policy); it cannot call the exchange (the local API refuses
 * foreign Origins and hostile Host names, and the exchange only answers the app's own origin);
 * it cannot guess a token (256 random bits); a token it somehow saw is worthless once used, and
 * after ten minutes in any case.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors.js';

export interface LocalCredentials {
  accountId: string;
  apiKey: string;
}

export interface SignInLinks {
  /** A new single-use token for the local credentials. 409 when this installation has none. */
  issue(): { token: string; expiresAt: number };
  /** The local credentials for a token, once; 401 for an unknown, used or expired token. */
  exchange(token: string): Promise<LocalCredentials>;
}

/** How long a sign-in link works. */
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;
/** Links kept at once; the oldest goes first (a server prints one per start). */
const MAX_PENDING = 16;

const hash = (token: string): string => createHash('sha256').update(token).digest('hex');

export function createSignInLinks(deps: {
  /** The local account's credentials, read when needed (they may be created after start). */
  credentials(): LocalCredentials | undefined;
  /** Whether the credentials still work (the key may have been revoked). */
  valid(credentials: LocalCredentials): Promise<boolean>;
  now?: () => number;
  ttlMs?: number;
}): SignInLinks {
  const now = deps.now ?? Date.now;
  const ttl = deps.ttlMs ?? SIGN_IN_TTL_MS;
  const pending = new Map<string, number>();
  const refused = (): DomainError => new DomainError('unauthorized', 'this sign-in link has expired or was already used; run `clindoc credentials` for the account id and key');
  return {
    issue() {
      if (!deps.credentials()) throw new DomainError('conflict', 'this installation has no local account to sign in to');
      for (const [key, expires] of pending) if (expires <= now()) pending.delete(key);
      while (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
      const token = `cds_${randomBytes(32).toString('base64url')}`;
      const expiresAt = now() + ttl;
      pending.set(hash(token), expiresAt);
      return { token, expiresAt };
    },
    async exchange(token) {
      const key = hash(token);
      const expires = pending.get(key);
      // Used or not, a token that was presented is gone: it works once (taken before any wait).
      pending.delete(key);
      if (expires === undefined || expires <= now()) throw refused();
      const credentials = deps.credentials();
      if (!credentials || !(await deps.valid(credentials))) {
        throw new DomainError('conflict', 'the stored local credentials no longer work; create a key with `clindoc keys create`');
      }
      return credentials;
    },
  };
}
