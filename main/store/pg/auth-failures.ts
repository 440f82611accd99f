import type pg from 'pg';
import type { FailureCounter, SharedFailureStore } from '../../services/auth-throttle/shared-throttle.js';
import { inTransaction, sqlOf } from './sql.js';

interface Row { key: string; failures: number; window_start: number; last_failure: number; locked_until: number; lockouts: number }

/** Counters whose last failure is older than this, and that are not locked, are deleted now and then. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Failed-key counters in the shared database (table `auth_failures`, migrations.ts), for the
 * shared throttle. An update locks its rows in key order (inserting a missing one in its turn), so
 * instances counting the same keys take turns and never deadlock. Old counters are swept
 * by whichever instance counts a failure, at most once an hour each, by `clock` (the throttle's).
 */
export function createPgAuthFailures(pool: pg.Pool, clock: () => number = Date.now): SharedFailureStore {
  const sql = sqlOf(pool);
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    async update(keys, change) {
      const sorted = [...new Set(keys)].sort();
      await inTransaction(pool, async (tx) => {
        // Each row is inserted or, when it exists, locked and read by the same statement, in key order:
        // a row deleted meanwhile (a right key, the sweep) is simply made again, and no count is lost.
        const byKey = new Map<string, Row>();
        for (const key of sorted) {
          const { rows } = await tx.query<Row>(
            `INSERT INTO auth_failures AS f (key, failures, window_start, last_failure, locked_until, lockouts) VALUES ($1, 0, 0, 0, 0, 0)
             ON CONFLICT (key) DO UPDATE SET key = f.key RETURNING *`,
            [key],
          );
          byKey.set(key, rows[0]!);
        }
        // A row inserted just now holds zeros: the same as no counter for `change`.
        const current = keys.map((key): FailureCounter | undefined => {
          const r = byKey.get(key);
          return r && (r.failures > 0 || r.lockouts > 0 || r.locked_until > 0)
            ? { failures: r.failures, windowStart: Number(r.window_start), lastFailure: Number(r.last_failure), lockedUntil: Number(r.locked_until), lockouts: r.lockouts }
            : undefined;
        });
        const next = change(current);
        for (const [i, key] of keys.entries()) {
          const c = next[i]!;
          await tx.query(
            'UPDATE auth_failures SET failures = $2, window_start = $3, last_failure = $4, locked_until = $5, lockouts = $6 WHERE key = $1',
            [key, c.failures, c.windowStart, c.lastFailure, c.lockedUntil, c.lockouts],
          );
        }
      });
      // The throttle's clock: the counters hold its times.
      const now = clock();
      if (now - lastSweep > 60 * 60 * 1000) {
        lastSweep = now;
        // Rows another instance is counting are skipped, not waited for (waiting in another order could deadlock).
        await sql.query(
          `DELETE FROM auth_failures WHERE key IN (
             SELECT key FROM auth_failures WHERE last_failure < $1 AND locked_until < $2 FOR UPDATE SKIP LOCKED)`,
          [now - FORGET_AFTER_MS, now],
        );
      }
    },
    async lockedAfter(now) {
      const { rows } = await sql.query<{ key: string; locked_until: string | number }>('SELECT key, locked_until FROM auth_failures WHERE locked_until > $1', [now]);
      return new Map(rows.map((r) => [r.key, Number(r.locked_until)]));
    },
    async forget(key, now) {
      await sql.query('DELETE FROM auth_failures WHERE key = $1 AND locked_until <= $2', [key, now]);
    },
  };
}
