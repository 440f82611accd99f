import type { Db } from './database.js';
import type { FailureCounter, SharedFailureStore } from '../services/auth-throttle/shared-throttle.js';

interface Row { key: string; failures: number; window_start: number; last_failure: number; locked_until: number; lockouts: number }

/** Counters whose last failure is older than this, and that are not locked, are deleted now and then. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Failed-key counters in the SQLite database (table `auth_failures`, migration 10), for the
 * throttle layer that outlives the process (issue 29: lockouts were forgotten on restart, so a
 * guesser restarted the count by making the app restart). The same port as PostgreSQL's
 * (pg/auth-failures.ts); one process owns the file, so a transaction is all the ordering needed.
 * Old counters are swept by a failure at most once an hour, by `clock` (the throttle's).
 */
export function createSqliteAuthFailures(db: Db, clock: () => number = Date.now): SharedFailureStore {
  const read = db.prepare<[string], Row>('SELECT * FROM auth_failures WHERE key = ?');
  const write = db.prepare(
    `INSERT INTO auth_failures (key, failures, window_start, last_failure, locked_until, lockouts) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start, last_failure = excluded.last_failure,
       locked_until = excluded.locked_until, lockouts = excluded.lockouts`,
  );
  const sweep = db.prepare('DELETE FROM auth_failures WHERE last_failure < ? AND locked_until < ?');
  const locked = db.prepare<[number], { key: string; locked_until: number }>('SELECT key, locked_until FROM auth_failures WHERE locked_until > ?');
  const forget = db.prepare('DELETE FROM auth_failures WHERE key = ? AND locked_until <= ?');
  const update = db.transaction((keys: string[], change: (counters: Array<FailureCounter | undefined>) => FailureCounter[]) => {
    const current = keys.map((key): FailureCounter | undefined => {
      const r = read.get(key);
      return r ? { failures: r.failures, windowStart: r.window_start, lastFailure: r.last_failure, lockedUntil: r.locked_until, lockouts: r.lockouts } : undefined;
    });
    const next = change(current);
    for (const [i, key] of keys.entries()) {
      const c = next[i]!;
      write.run(key, c.failures, c.windowStart, c.lastFailure, c.lockedUntil, c.lockouts);
    }
  });
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    async update(keys, change) {
      update(keys, change);
      const now = clock();
      if (now - lastSweep > 60 * 60 * 1000) {
        lastSweep = now;
        sweep.run(now - FORGET_AFTER_MS, now);
      }
    },
    async lockedAfter(now) {
      return new Map(locked.all(now).map((r) => [r.key, r.locked_until]));
    },
    async forget(key, now) {
      forget.run(key, now);
    },
  };
}
