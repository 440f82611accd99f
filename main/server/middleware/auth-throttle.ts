import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../../services/accounts/account-service.js';
import type { AuthThrottle, LockoutScope } from '../../services/auth-throttle/auth-throttle.js';
import type { SharedThrottle } from '../../services/auth-throttle/shared-throttle.js';
import type { AuditInput } from '../../services/audit/audit-service.js';
import { DomainError } from '../../services/errors.js';

/** A lockout as the audit trail hears of it: who was locked out where, never the keys tried. */
export interface LockoutEvent {
  address: string;
  /** The account id the client claimed (attacker-chosen: check it exists before storing it). */
  claimedAccountId: string;
  scope: LockoutScope;
  seconds: number;
  requestId: string | null;
}

export interface ThrottledAuthDeps {
  throttle: AuthThrottle;
  /** The lockouts counted in a clinic's shared database, beside this instance's own throttle; absent on one process. */
  shared?: SharedThrottle;
  onLockout(event: LockoutEvent): void;
}

/** The outcome of one throttled credential check. */
export interface ThrottledResult {
  principal?: Principal;
  error?: DomainError;
  /** Answer the failure only after this long. */
  delayMs: number;
}

/** The 429 a locked-out client gets, before its key is looked at. */
export const lockedOut = (retryAfterSeconds: number): DomainError =>
  new DomainError('rate_limited', `too many failed authentication attempts; retry after ${retryAfterSeconds} seconds`, {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/**
 * Checks a presented credential through the throttle: a locked-out client is refused without the
 * key being verified (so a lockout never confirms a guess); a wrong key is counted and may start
 * a lockout, which is reported once through `onLockout`; a right key clears that client's count.
 * A client's checks in flight at once are bounded by its wrong keys left (`AuthThrottle.enter`).
 * Requests that present no credential are not guesses and are not counted.
 */
export async function throttledAuthenticate(
  deps: ThrottledAuthDeps,
  request: {
    address: string; accountId: string | undefined; presented: boolean; requestId: string | null;
    /** Counted apart from other clients at the same address (see `throttleScope`); the audit trail still names `address`. */
    scope?: string;
  },
  verify: () => Promise<Principal>,
): Promise<ThrottledResult> {
  const { accountId = '', presented } = request;
  const address = request.scope ? `${request.address} ${request.scope}` : request.address;
  if (!presented) {
    try {
      return { principal: await verify(), delayMs: 0 };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return { error: err, delayMs: 0 };
    }
  }
  // Guesses sent side by side wait their turn rather than all being checked before the first failure counts.
  await deps.throttle.enter(address, accountId);
  try {
    const state = deps.throttle.check(address, accountId);
    if (!state.allowed) return { error: lockedOut(state.retryAfterSeconds), delayMs: 0 };
    // The shared lockouts add to this instance's; if the database cannot say, the local throttle still stands.
    const everywhere = deps.shared ? await deps.shared.check(address, accountId).catch(() => state) : state;
    if (!everywhere.allowed) return { error: lockedOut(everywhere.retryAfterSeconds), delayMs: 0 };
    let principal: Principal;
    try {
      principal = await verify();
    } catch (err) {
      // Only a refused credential is a guess; a failure of the store (a full disk, say) is not counted.
      if (!(err instanceof DomainError)) throw err;
      if (err.kind !== 'unauthorized') return { error: err, delayMs: 0 };
      const outcome = deps.throttle.failure(address, accountId);
      // Counted for every instance too; one lockout is recorded, this instance's if it began one.
      const sharedLockout = deps.shared ? await deps.shared.failure(address, accountId).catch(() => undefined) : undefined;
      const lockout = outcome.lockout ?? sharedLockout;
      if (lockout) {
        deps.onLockout({ address: request.address, claimedAccountId: accountId, scope: lockout.scope, seconds: lockout.seconds, requestId: request.requestId });
      }
      return { error: err, delayMs: outcome.delayMs };
    }
    deps.throttle.success(address, accountId);
    await deps.shared?.success(address, accountId).catch(() => undefined);
    return { principal, delayMs: 0 };
  } finally {
    deps.throttle.leave(address, accountId);
  }
}

/**
 * Authenticates `/v1` and `/v2` requests from their headers through the throttle. The principal
 * (or the refusal) is left in `res.locals` for the route registry, which answers 401 or 429 only
 * for operations that need credentials; rate-limit headers are still set on the way.
 */
export function authenticateRequests(deps: ThrottledAuthDeps & {
  authenticate(apiKey: string | undefined, accountId: string | undefined): Promise<Principal>;
  /** The request's throttle scope (`throttleScope`); default none. */
  scopeOf?: (address: string, origin: string | undefined) => string | undefined;
}) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const apiKey = req.get('X-API-KEY');
    const accountId = req.get('X-ACCOUNT-ID');
    const address = (res.locals.clientAddress as string | undefined) ?? req.ip ?? 'unknown';
    const scope = deps.scopeOf?.(address, req.get('origin'));
    let result: ThrottledResult;
    try {
      result = await throttledAuthenticate(
        deps,
        {
          address, accountId, presented: Boolean(apiKey), requestId: (res.locals.requestId as string | undefined) ?? null,
          ...(scope ? { scope } : {}),
        },
        () => deps.authenticate(apiKey, accountId),
      );
    } catch (err) {
      next(err);
      return;
    }
    if (result.principal) res.locals.principal = result.principal;
    else res.locals.authError = result.error;
    if (result.delayMs > 0) setTimeout(next, result.delayMs);
    else next();
  };
}

/**
 * On loopback every local program shares one address, so the app's own page (a request carrying
 * the app's own Origin, which browsers set and pages cannot forge) is counted apart: another local
 * process's wrong keys no longer lock the physician's interface out (issue 29: 50 wrong keys did).
 * A local program can still claim that Origin, and then it only locks out that scope. Requests from
 * other addresses are not split: a remote client choosing an Origin would buy itself more tries.
 */
export function throttleScope(isLoopback: (address: string) => boolean, ownOrigin: (origin: string | undefined) => boolean) {
  return (address: string, origin: string | undefined): string | undefined => (isLoopback(address) && ownOrigin(origin) ? 'app' : undefined);
}

/**
 * The audit entry of a lockout. It names the account only when `knownAccountId` says the claimed
 * id is a real account (so its owner sees the attack in their own trail); an invented id is not
 * stored. The keys tried never reach this function.
 */
export function lockoutAuditEvent(event: LockoutEvent, knownAccountId: string | null): AuditInput {
  return {
    accountId: knownAccountId, keyId: null, actor: 'anonymous', action: 'authenticate', resourceType: 'account', resourceId: knownAccountId,
    operation: `lockout:${event.scope}:${event.seconds}s`, ip: event.address, outcome: 'locked', status: 429, requestId: event.requestId,
  };
}
