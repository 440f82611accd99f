/**
 * Part of the one composition: who may come in. The failed-authentication throttles (one for REST and
 * the streaming socket, so a guess counts wherever it is made), the request-rate counters, the
 * one-click sign-in links, and the local account a desktop makes on its first start.
 */
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import type { LateBound } from './late-bound.js';
import { readLocalCredentials } from './local-credentials.js';
import type { AccountService } from './services/accounts/account-service.js';
import { createSignInLinks, type LocalCredentials, type SignInLinks } from './services/accounts/sign-in-links.js';
import { createAuthThrottle, type AuthThrottle } from './services/auth-throttle/auth-throttle.js';
import { createSharedThrottle, type SharedThrottle } from './services/auth-throttle/shared-throttle.js';
import type { RateWindows } from './services/rate-windows.js';
import { createSqliteAuthFailures } from './store/auth-failures-store.js';

export interface ComposedAccess {
  authThrottle: AuthThrottle;
  sharedThrottle: SharedThrottle;
  /** Request-rate counters shared by a clinic's instances; absent: each process counts its own, in memory. */
  rateWindows?: RateWindows;
  signIn: SignInLinks;
}

export interface AccessOptions {
  /** Clock of the throttles (tests move time instead of waiting); default Date.now. */
  throttleClock?: () => number;
  /** Rate-limit counters instead of the configured ones (benchmarks compare them). */
  rateWindows?: RateWindows;
}

export async function composeAccess(
  config: ClindocConfig, storage: Pick<ComposedStores, 'db' | 'shared'>, accounts: AccountService,
  localAccount: LateBound<LocalCredentials | undefined>, options: AccessOptions,
): Promise<ComposedAccess> {
  const { shared } = storage;
  const authThrottle = createAuthThrottle(config.authThrottle, options.throttleClock);
  // On a clinic's database every API instance counts wrong keys for all of them; on SQLite the same
  // counters are kept in the file, so a restart does not forget a lockout (issue 29).
  const failureStore = shared
    ? (await import('./store/pg/auth-failures.js')).createPgAuthFailures(shared.pool, options.throttleClock)
    : createSqliteAuthFailures(storage.db, options.throttleClock);
  const sharedThrottle = createSharedThrottle(failureStore, config.authThrottle, options.throttleClock);
  // API instances on one database count one window per client (loaded, like the stores, only in clinic mode).
  const rateWindows = options.rateWindows ?? (shared ? (await import('./store/pg/rate-windows.js')).createPgRateWindows(shared.pool) : undefined);
  const signIn = createSignInLinks({
    // The file the entry points keep; on the first start, also the account this start made (an embedder may keep no file).
    credentials: () => readLocalCredentials(config.dataDir) ?? localAccount.get(),
    valid: (c) => accounts.authenticate(c.apiKey, c.accountId).then(() => true, () => false),
  });
  return { authThrottle, sharedThrottle, ...(rateWindows ? { rateWindows } : {}), signIn };
}

/**
 * The local account of a desktop, made on its first start (a clinic server's accounts are made with
 * `clindoc accounts create`, never on first start). Resolves with the credentials when this start made
 * it: the process entry points keep them in the owner-only file (local-credentials.ts).
 */
export async function ensureLocalAccount(config: ClindocConfig, accounts: AccountService, shared: boolean, create = !shared): Promise<LocalCredentials | undefined> {
  if (!create) return undefined;
  const created = await accounts.ensureLocalAccount();
  if (created) return { accountId: created.account.id, apiKey: created.apiKey };
  if (!shared) {
    // A desktop's local account made before the operator role existed holds it too (issue 29).
    const local = readLocalCredentials(config.dataDir);
    if (local) await accounts.setOperator(local.accountId, true).catch(() => undefined);
  }
  return undefined;
}
