import { hash as digest, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AccountRecord, AccountStore, ApiKeyRecord } from '../storage.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';

/** Who made a request: the account and the key (or streaming token's key) that proved it. */
export interface Principal {
  accountId: string;
  keyId: string;
}

export interface CreatedKey {
  keyId: string;
  /** The secret, shown once; only its hash is stored. */
  apiKey: string;
}

export interface AccountService {
  /** With `operator`, the account holds the operator role (`clindoc accounts create --operator`). */
  createAccount(name: string, options?: { operator?: boolean }): Promise<{ account: AccountRecord } & CreatedKey>;
  listAccounts(): Promise<AccountRecord[]>;
  createKey(accountId: string): Promise<CreatedKey>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  revokeKey(keyId: string): Promise<void>;
  /** Checks an API key against the account it claims; rejects with 401 on any mismatch. */
  authenticate(apiKey: string | undefined, accountId: string | undefined): Promise<Principal>;
  /** Issues a short-lived token usable only for this account's streaming socket. */
  issueStreamToken(principal: Principal, ttlSeconds: number): Promise<{ token: string; expiresAt: string }>;
  authenticateStreamToken(token: string, accountId: string | undefined): Promise<Principal>;
  /**
   * Whether an account holds the operator role: installation-wide actions (backups, model installs,
   * code-set imports) are its alone. The local account, accounts created or marked as operators,
   * and those named in CLINDOC_OPERATOR_ACCOUNTS do.
   */
  isOperator(accountId: string): Promise<boolean>;
  /** Grants or withdraws the operator role; 404 for an unknown account. */
  setOperator(accountId: string, operator: boolean): Promise<void>;
  /**
   * On a store with no accounts, creates the local account (an operator) and its key; otherwise undefined.
   * Calls made while one is in progress wait for it, so this process creates at most one.
   */
  ensureLocalAccount(): Promise<({ account: AccountRecord } & CreatedKey) | undefined>;
}

const KEY_PREFIX = 'cdk_';
const TOKEN_PREFIX = 'cdt_';

/** Keys carry 256 random bits, so a fast hash is enough: there is nothing to brute-force. */
export const hashSecret = (secret: string): string => digest('sha256', secret, 'hex');

const unauthorized = (message = 'invalid API key or account id'): DomainError => new DomainError('unauthorized', message);

/**
 * A key's last-used time is written at most this often: a write per request cost more than the
 * rest of the key check (issue 19).
 */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

/**
 * How long a verified key is trusted without asking the store again (issue 19: the lookup was a
 * tenth of a cheap request). A key revoked through this process (the API, or `revokeKey` of the
 * same service) is refused on the very next request; one revoked by another process (the CLI
 * beside a running desktop server, another clinic-server instance on the same PostgreSQL) stops
 * working there within this many milliseconds. Only keys that were verified enter the cache.
 */
export const KEY_CACHE_MS = 5_000;

/** Verified keys kept at once (a bound, not an expected size: entries come only from right keys). */
const KEY_CACHE_MAX = 10_000;

const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The API-key check: verified keys trusted for KEY_CACHE_MS without a lookup, last-used times
 * written at most every KEY_TOUCH_INTERVAL_MS, and revocation that empties the cache of that key.
 */
function createKeyCheck(store: AccountStore, now: () => number): Pick<AccountService, 'authenticate' | 'revokeKey'> {
  /** When each key's last-used time was last written by this process. */
  const touchedAt = new Map<string, number>();
  /** Verified keys by the hash of their secret, until when they are trusted without a lookup. */
  const verified = new Map<string, { accountId: string; keyId: string; until: number }>();
  /**
   * Counts revocations begun or ended here: a lookup that overlapped one does not fill the cache,
   * so a key read as valid just before its revocation landed is not trusted after it.
   */
  let revocations = 0;
  const forget = (keyId: string): void => {
    revocations++;
    for (const [secretHash, entry] of verified) if (entry.keyId === keyId) verified.delete(secretHash);
  };
  return {
    async revokeKey(keyId) {
      touchedAt.delete(keyId);
      forget(keyId);
      try {
        if (!(await store.revokeKey(keyId, now()))) throw notFound('active key');
      } finally {
        // Again once the store has it: a lookup that read the key before the write may have cached it.
        forget(keyId);
      }
    },
    async authenticate(apiKey, accountId) {
      if (!apiKey || !accountId) throw unauthorized('X-API-KEY and X-ACCOUNT-ID headers are required');
      const hash = hashSecret(apiKey);
      const t = now();
      let key = verified.get(hash);
      if (!key || key.until <= t) {
        verified.delete(hash);
        const epoch = revocations;
        const stored = await store.findKeyByHash(hash);
        // Compare in constant time even though the lookup is by hash, and give one answer for
        // every failure so a caller cannot tell a wrong key from a wrong account.
        if (!stored || !sameHash(stored.hash, hash) || stored.revokedAt !== null) throw unauthorized();
        key = { accountId: stored.accountId, keyId: stored.id, until: t + KEY_CACHE_MS };
        if (epoch === revocations) {
          if (verified.size >= KEY_CACHE_MAX) verified.delete(verified.keys().next().value as string);
          verified.set(hash, key);
        }
      }
      if (key.accountId !== accountId) throw unauthorized();
      const last = touchedAt.get(key.keyId);
      if (last === undefined || t - last >= KEY_TOUCH_INTERVAL_MS) {
        touchedAt.set(key.keyId, t);
        // Not awaited: the last-used time is a convenience, and a full disk must not lock a right key out.
        void store.touchKey(key.keyId, t).catch(() => undefined);
      }
      return { accountId: key.accountId, keyId: key.keyId };
    },
  };
}

/** Short-lived tokens for one account's streaming socket, each dying with the key that issued it. */
function createStreamTokens(store: AccountStore, now: () => number): Pick<AccountService, 'issueStreamToken' | 'authenticateStreamToken'> {
  return {
    async issueStreamToken(principal, ttlSeconds) {
      const token = `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
      const expiresAt = now() + ttlSeconds * 1000;
      await store.deleteExpiredStreamTokens(now());
      await store.insertStreamToken({ hash: hashSecret(token), accountId: principal.accountId, keyId: principal.keyId, expiresAt });
      return { token, expiresAt: new Date(expiresAt).toISOString() };
    },
    async authenticateStreamToken(token, accountId) {
      const found = await store.findStreamToken(hashSecret(token));
      if (!found || found.expiresAt < now() || (accountId !== undefined && found.accountId !== accountId)) {
        throw unauthorized('invalid or expired streaming token');
      }
      const keys = await store.listKeys(found.accountId);
      const key = keys.find((k) => k.id === found.keyId);
      // A token dies with the key that issued it.
      if (!key || key.revokedAt !== null) throw unauthorized('invalid or expired streaming token');
      return { accountId: found.accountId, keyId: found.keyId };
    },
  };
}

export function createAccountService(deps: {
  store: AccountStore;
  /** Account ids holding the operator role by configuration (CLINDOC_OPERATOR_ACCOUNTS). */
  operators?: readonly string[];
  now?: () => number;
}): AccountService {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  /** The ensureLocalAccount call in progress, so calls run one after another. */
  let ensuring: Promise<unknown> = Promise.resolve();

  const createKey = async (accountId: string): Promise<CreatedKey> => {
    if (!(await store.getAccount(accountId))) throw notFound('account');
    const keyId = `key_${randomBytes(8).toString('hex')}`;
    const apiKey = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    await store.insertKey({ id: keyId, accountId, hash: hashSecret(apiKey), createdAt: now(), revokedAt: null, lastUsedAt: null });
    return { keyId, apiKey };
  };

  const configuredOperators = new Set(deps.operators ?? []);
  const createAccount = async (name: string, options: { operator?: boolean } = {}): Promise<{ account: AccountRecord } & CreatedKey> => {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 200) throw invalidRequest('name: must be 1 to 200 characters');
    const account: AccountRecord = { id: `acct_${randomUUID().replace(/-/g, '')}`, name: trimmed, createdAt: now(), operator: options.operator ?? false };
    await store.createAccount(account);
    return { account, ...(await createKey(account.id)) };
  };

  return {
    createAccount,
    listAccounts: () => store.listAccounts(),
    async isOperator(accountId) {
      // Read at each installation-wide action (rare), so a role granted or withdrawn applies at once.
      return configuredOperators.has(accountId) || (await store.getAccount(accountId))?.operator === true;
    },
    async setOperator(accountId, operator) {
      if (!(await store.setOperator(accountId, operator))) throw notFound('account');
    },
    createKey,
    listKeys: (accountId) => store.listKeys(accountId),
    ...createKeyCheck(store, now),
    ...createStreamTokens(store, now),
    ensureLocalAccount() {
      // Count-then-create spans two awaits: one check at a time keeps a second call from creating a second account.
      // The desktop's own account is its operator: the person at this computer installs and backs up.
      const run = ensuring.then(async () => ((await store.countAccounts()) > 0 ? undefined : createAccount('Local', { operator: true })));
      ensuring = run.catch(() => undefined);
      return run;
    },
  };
}
