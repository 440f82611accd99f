/**
 * The policy that slows down and then stops key guessing. Pure: it counts failures in memory,
 * takes the time from a clock handed in, and decides; the server middleware and the streaming
 * door ask it before checking a key and tell it the outcome afterwards.
 *
 * Three counters, because an attacker and the key's owner often share something:
 * - per (address, account): the strict one. After `maxFailures` wrong keys in the window, that
 *   address may not try that account for a lockout period, which doubles with each lockout in a
 *   row up to `maxLockoutSeconds`. The key is not even checked while locked, so a lockout never
 *   tells a guesser whether a guess was right.
 * - per address (any account): `5 x maxFailures` failures lock the whole address, so rotating
 *   account ids does not buy more guesses.
 * - per account (any address): the soft one. Past `10 x maxFailures` failures the account counts
 *   as under attack: any address that then fails for it even once is locked out at once. An
 *   address that has not failed (the owner's own client) still gets in, so a distributed guesser
 *   can never lock the real owner out of their account.
 * Before the lockout, each failure past the second is answered after a growing delay.
 *
 * Checks from one address run side by side only as far as its wrong keys left allow (`enter`,
 * `leave`): while a networked store answers, guesses sent at once would otherwise all be checked
 * before the first failure is counted. A client with no failures waits only past `maxFailures`
 * checks in flight, and with SQLite, which answers at once, never.
 */

/** Limits of the throttle; each comes from a configuration variable (see main/config.ts). */
export interface AuthThrottleLimits {
  /** Wrong keys from one address for one account before a lockout (CLINDOC_AUTH_MAX_FAILURES, default 10). */
  maxFailures: number;
  /** How long failures are remembered, in seconds (CLINDOC_AUTH_WINDOW_SECONDS, default 900). */
  windowSeconds: number;
  /** First lockout, in seconds; each further lockout in a row doubles it (CLINDOC_AUTH_LOCKOUT_SECONDS, default 60). */
  lockoutSeconds: number;
  /** Longest lockout, in seconds (CLINDOC_AUTH_MAX_LOCKOUT_SECONDS, default 3600). */
  maxLockoutSeconds: number;
  /** Delay before answering the third failure, doubling per failure up to 8x (CLINDOC_AUTH_DELAY_MS, default 250; 0 = none). */
  delayMs: number;
}

export const DEFAULT_AUTH_THROTTLE_LIMITS: AuthThrottleLimits = {
  maxFailures: 10, windowSeconds: 900, lockoutSeconds: 60, maxLockoutSeconds: 3600, delayMs: 250,
};

/** Which counter locked a client out. */
export type LockoutScope = 'address-account' | 'address';

/** What the throttle says about a credential before it is checked. */
export type ThrottleCheck = { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: LockoutScope };

/** What the throttle says after a wrong key. */
export interface FailureOutcome {
  /** Wait this long before answering (slows a guesser without blocking anyone else). */
  delayMs: number;
  /** Set when this failure started a lockout: the event the audit trail records. */
  lockout?: { scope: LockoutScope; seconds: number; accountUnderAttack: boolean };
}

export interface AuthThrottle {
  /** Whether `address` may present a credential for `accountId` now. */
  check(address: string, accountId: string): ThrottleCheck;
  /** Records a wrong credential; says how long to wait and whether a lockout began. */
  failure(address: string, accountId: string): FailureOutcome;
  /** Records a correct credential: that address's count for that account starts again. */
  success(address: string, accountId: string): void;
  /**
   * Waits for a place among the checks in flight from `address` (for `accountId`, and for any
   * account): no more run at once than wrong keys are left before the lockout. Call `check` after
   * it, and `leave` once the outcome is recorded.
   */
  enter(address: string, accountId: string): Promise<void>;
  /** Gives back the place `enter` took. */
  leave(address: string, accountId: string): void;
}

/** One failure counter: a pair's, an address's or an account's (shared-throttle.ts keeps them in a database). */
export interface Counter {
  failures: number;
  windowStart: number;
  lastFailure: number;
  lockedUntil: number;
  /** Lockouts in a row, which double the next one; forgotten after a quiet window. */
  lockouts: number;
}

/** Brings a counter to time `t` (in place): a new window once the last one ended, earlier lockouts forgiven after a quiet one. */
export function ageCounter(c: Counter, t: number, windowMs: number): Counter {
  if (t - c.windowStart >= windowMs) {
    c.failures = 0;
    c.windowStart = t;
  }
  if (c.lockouts > 0 && c.lockedUntil <= t && t - c.lastFailure >= windowMs) c.lockouts = 0;
  return c;
}

/** Locks a counter from `t` (in place) for the next lockout's length, doubling with each in a row; returns that length in seconds. */
export function lockCounter(c: Counter, t: number, l: Pick<AuthThrottleLimits, 'lockoutSeconds' | 'maxLockoutSeconds'>): number {
  const seconds = Math.min(l.maxLockoutSeconds, l.lockoutSeconds * 2 ** c.lockouts);
  c.lockouts += 1;
  c.lockedUntil = t + seconds * 1000;
  c.failures = 0;
  c.windowStart = t;
  return seconds;
}

/** More distinct keys than this and the oldest idle counters are forgotten (memory stays bounded). */
const MAX_ENTRIES = 10_000;
const FAILURES_BEFORE_DELAY = 2;
const MAX_DELAY_FACTOR = 8;
/** Account ids are attacker-chosen strings; only this much of one is kept as a key. */
const MAX_ID_LENGTH = 200;

/** Forgets idle counters once a map is full, so memory stays bounded whatever the number of clients. */
function pruneCounters(map: Map<string, Counter>, t: number, windowMs: number): void {
  if (map.size < MAX_ENTRIES) return;
  for (const [key, c] of map) if (c.lockedUntil <= t && t - c.lastFailure >= windowMs) map.delete(key);
  // Still nearly full: drop the oldest tenth (Map keeps insertion order), so the sweep runs once
  // per thousand new clients, not on every one, and memory never grows without bound.
  for (const key of map.keys()) {
    if (map.size < MAX_ENTRIES * 0.9) break;
    map.delete(key);
  }
}

/** Whole seconds left of a counter's lockout (at least 1 while locked), 0 when not locked. */
const remaining = (c: Counter | undefined, t: number): number => (c && c.lockedUntil > t ? Math.max(1, Math.ceil((c.lockedUntil - t) / 1000)) : 0);

/** Adds `by` to a count, dropping it at zero. */
function adjust(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

/** Creates the in-memory throttle; `now` is milliseconds since the epoch (tests pass a fake clock). */
export function createAuthThrottle(limits: Partial<AuthThrottleLimits> = {}, now: () => number = Date.now): AuthThrottle {
  const l = { ...DEFAULT_AUTH_THROTTLE_LIMITS, ...limits };
  const windowMs = l.windowSeconds * 1000;
  const pairs = new Map<string, Counter>();
  const addresses = new Map<string, Counter>();
  const accounts = new Map<string, Counter>();
  const pairKey = (address: string, accountId: string): string => `${address}\n${accountId.slice(0, MAX_ID_LENGTH)}`;

  /** The counter for `key`, its failures restarted when the window has passed. */
  const counter = (map: Map<string, Counter>, key: string, t: number): Counter => {
    let c = map.get(key);
    if (!c) {
      pruneCounters(map, t, windowMs);
      c = { failures: 0, windowStart: t, lastFailure: 0, lockedUntil: 0, lockouts: 0 };
      map.set(key, c);
    }
    return ageCounter(c, t, windowMs);
  };
  const lock = (c: Counter, t: number): number => lockCounter(c, t, l);

  // Checks in flight, by pair and by address, and the checks waiting for a place, by address.
  const inFlightPairs = new Map<string, number>();
  const inFlightAddresses = new Map<string, number>();
  const waiting = new Map<string, Array<{ pair: string; admit: () => void }>>();
  const failuresIn = (c: Counter | undefined, t: number): number => (c && t - c.windowStart < windowMs ? c.failures : 0);
  /** Whether one more check may start: never more at once than wrong keys left (at least one, so a locked client gets its 429). */
  const room = (address: string, pair: string): boolean => {
    const t = now();
    const pairLeft = Math.max(1, l.maxFailures - failuresIn(pairs.get(pair), t));
    const addressLeft = Math.max(1, 5 * l.maxFailures - failuresIn(addresses.get(address), t));
    return (inFlightPairs.get(pair) ?? 0) < pairLeft && (inFlightAddresses.get(address) ?? 0) < addressLeft;
  };
  const take = (address: string, pair: string): void => {
    adjust(inFlightPairs, pair, 1);
    adjust(inFlightAddresses, address, 1);
  };

  return {
    check(address, accountId) {
      const t = now();
      const byPair = remaining(pairs.get(pairKey(address, accountId)), t);
      const byAddress = remaining(addresses.get(address), t);
      if (byPair === 0 && byAddress === 0) return { allowed: true };
      return byPair >= byAddress
        ? { allowed: false, retryAfterSeconds: byPair, scope: 'address-account' }
        : { allowed: false, retryAfterSeconds: byAddress, scope: 'address' };
    },
    failure(address, accountId) {
      const t = now();
      const pair = counter(pairs, pairKey(address, accountId), t);
      const byAddress = counter(addresses, address, t);
      const account = counter(accounts, accountId.slice(0, MAX_ID_LENGTH), t);
      for (const c of [pair, byAddress, account]) {
        c.failures += 1;
        c.lastFailure = t;
      }
      const underAttack = account.failures > 10 * l.maxFailures;
      const n = pair.failures;
      let outcome: FailureOutcome['lockout'];
      if (n >= l.maxFailures || underAttack) {
        outcome = { scope: 'address-account', seconds: lock(pair, t), accountUnderAttack: underAttack };
      }
      if (byAddress.failures >= 5 * l.maxFailures) {
        const seconds = lock(byAddress, t);
        if (!outcome || seconds > outcome.seconds) outcome = { scope: 'address', seconds, accountUnderAttack: underAttack };
      }
      const delayMs = outcome || n <= FAILURES_BEFORE_DELAY ? 0 : Math.min(l.delayMs * MAX_DELAY_FACTOR, l.delayMs * 2 ** (n - FAILURES_BEFORE_DELAY - 1));
      return { delayMs, ...(outcome ? { lockout: outcome } : {}) };
    },
    success(address, accountId) {
      pairs.delete(pairKey(address, accountId));
    },
    enter(address, accountId) {
      const pair = pairKey(address, accountId);
      // First come, first served: a newcomer does not pass checks already waiting.
      if (!waiting.has(address) && room(address, pair)) {
        take(address, pair);
        return Promise.resolve();
      }
      return new Promise<void>((admit) => {
        const queue = waiting.get(address) ?? [];
        queue.push({ pair, admit });
        waiting.set(address, queue);
      });
    },
    leave(address, accountId) {
      adjust(inFlightPairs, pairKey(address, accountId), -1);
      adjust(inFlightAddresses, address, -1);
      const queue = waiting.get(address);
      if (!queue) return;
      for (let i = 0; i < queue.length;) {
        const next = queue[i]!;
        if (!room(address, next.pair)) {
          i++;
          continue;
        }
        take(address, next.pair);
        queue.splice(i, 1);
        next.admit();
      }
      if (queue.length === 0) waiting.delete(address);
    },
  };
}
