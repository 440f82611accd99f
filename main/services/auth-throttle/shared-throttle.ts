/**
 * The failed-key lockouts of a clinic's API instances, counted in their shared database, so a
 * guesser who spreads wrong keys over N instances behind the load balancer gets no more tries than
 * against one. It stands beside each instance's own throttle (auth-throttle.ts), which still slows
 * every failure past the second and bounds the checks in flight; this layer adds the two lockouts
 * that matter across instances: per (address, account) after `maxFailures` wrong keys in the window,
 * and per address after five times that, each doubling while they come in a row.
 *
 * Checking costs no query: locked keys are few (a lockout is rare), so each instance keeps the set
 * of counters locked now and reads it again at most once per `refreshMs` in the background. A
 * lockout begun on another instance is obeyed here within that time; one begun here at once.
 */
import {
  ageCounter, DEFAULT_AUTH_THROTTLE_LIMITS, lockCounter, type AuthThrottleLimits, type Counter, type FailureOutcome, type ThrottleCheck,
} from './auth-throttle.js';

/** One shared failure counter (a pair's or an address's), as the store keeps it. */
export type FailureCounter = Counter;

/** The shared database's side: counters by key, changed under a lock that orders the instances. */
export interface SharedFailureStore {
  /**
   * Reads the counters of `keys` (undefined where none is kept), lets `change` work out their new
   * values, and writes those, as one transaction: two instances counting the same key take turns.
   */
  update(keys: string[], change: (counters: Array<FailureCounter | undefined>) => FailureCounter[]): Promise<void>;
  /** Counters locked past `now`, key to the end of their lockout (ms since 1970). */
  lockedAfter(now: number): Promise<Map<string, number>>;
  /**
   * Forgets a counter (a right key after wrong ones) unless it is locked at `now`: a lockout another
   * instance began, which this one has not read yet, stays.
   */
  forget(key: string, now: number): Promise<void>;
}

export interface SharedThrottle {
  /** Whether `address` may present a credential for `accountId`, by the lockouts of every instance. */
  check(address: string, accountId: string): Promise<ThrottleCheck>;
  /** Counts a wrong credential for every instance; returns the lockout it began, if any. */
  failure(address: string, accountId: string): Promise<FailureOutcome['lockout']>;
  /** A right credential: what this instance counted for that address and account is forgotten. */
  success(address: string, accountId: string): Promise<void>;
}

/** Account ids are attacker-chosen strings; only this much of one is kept, as the local throttle does. */
const MAX_ID_LENGTH = 200;
/** Pairs this instance has counted failures for, remembered so that a right key clears them (bounded). */
const MAX_COUNTED = 10_000;

export function createSharedThrottle(
  store: SharedFailureStore, limits: Partial<AuthThrottleLimits> = {}, now: () => number = Date.now, refreshMs = 1000,
): SharedThrottle {
  const l = { ...DEFAULT_AUTH_THROTTLE_LIMITS, ...limits };
  const windowMs = l.windowSeconds * 1000;
  const pairKey = (address: string, accountId: string): string => `p:${address}\n${accountId.slice(0, MAX_ID_LENGTH)}`;
  const addressKey = (address: string): string => `a:${address}`;

  let locked = new Map<string, number>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const read = (): Promise<void> =>
    (reading ??= store.lockedAfter(now()).then((fresh) => {
      // Lockouts only begin or run out, never end early: one this instance began while the read was
      // under way (not in `fresh`) is kept until it runs out.
      const t = now();
      for (const [key, until] of locked) if (until > t && (fresh.get(key) ?? 0) < until) fresh.set(key, until);
      locked = fresh;
      readAt = t;
    }).finally(() => (reading = undefined)));

  const counted = new Set<string>();

  const advance = (c: FailureCounter | undefined, t: number): FailureCounter =>
    ageCounter(c ? { ...c } : { failures: 0, windowStart: t, lastFailure: 0, lockedUntil: 0, lockouts: 0 }, t, windowMs);
  const lock = (c: FailureCounter, t: number): number => lockCounter(c, t, l);
  const remaining = (key: string, t: number): number => {
    const until = locked.get(key) ?? 0;
    return until > t ? Math.max(1, Math.ceil((until - t) / 1000)) : 0;
  };

  return {
    async check(address, accountId) {
      // The first check waits for the set; later ones use it and refresh it behind them.
      if (readAt === Number.NEGATIVE_INFINITY) await read();
      else if (now() - readAt >= refreshMs) void read().catch(() => undefined);
      const t = now();
      const byPair = remaining(pairKey(address, accountId), t);
      const byAddress = remaining(addressKey(address), t);
      if (byPair === 0 && byAddress === 0) return { allowed: true };
      return byPair >= byAddress
        ? { allowed: false, retryAfterSeconds: byPair, scope: 'address-account' }
        : { allowed: false, retryAfterSeconds: byAddress, scope: 'address' };
    },
    async failure(address, accountId) {
      const pair = pairKey(address, accountId);
      const byAddress = addressKey(address);
      const t = now();
      let outcome: FailureOutcome['lockout'];
      await store.update([pair, byAddress], ([p, a]) => {
        const [nextPair, nextAddress] = [advance(p, t), advance(a, t)];
        outcome = undefined;
        // Locked already by another instance (this one had not read it yet): obeyed below, not counted
        // again, so a lockout is not doubled by guesses that its own instance would have refused.
        if (nextPair.lockedUntil <= t && nextAddress.lockedUntil <= t) {
          for (const c of [nextPair, nextAddress]) {
            c.failures += 1;
            c.lastFailure = t;
          }
          if (nextPair.failures >= l.maxFailures) outcome = { scope: 'address-account', seconds: lock(nextPair, t), accountUnderAttack: false };
          if (nextAddress.failures >= 5 * l.maxFailures) {
            const seconds = lock(nextAddress, t);
            if (!outcome || seconds > outcome.seconds) outcome = { scope: 'address', seconds, accountUnderAttack: false };
          }
        }
        // What this instance locked, it obeys at once.
        if (nextPair.lockedUntil > t) locked.set(pair, nextPair.lockedUntil);
        if (nextAddress.lockedUntil > t) locked.set(byAddress, nextAddress.lockedUntil);
        return [nextPair, nextAddress];
      });
      if (counted.size >= MAX_COUNTED) counted.clear();
      counted.add(pair);
      return outcome;
    },
    async success(address, accountId) {
      const pair = pairKey(address, accountId);
      // Only pairs this instance counted cost a write: a right key is the common case and stays free.
      if (!counted.delete(pair)) return;
      await store.forget(pair, now());
    },
  };
}
