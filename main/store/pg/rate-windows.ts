import type pg from 'pg';
import type { RateWindows } from '../../services/rate-windows.js';
import { sqlOf, type Sql } from './sql.js';

// One statement per request: the row lock of the upsert orders instances counting the same key.
// SET expressions read the row as it was, so a window that ended restarts at 1 with a new end.
const HIT = `
  INSERT INTO rate_windows AS w (key, ends_at, count) VALUES ($1, $2::bigint + $3::bigint, 1)
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN w.ends_at <= $2::bigint THEN 1 ELSE w.count + 1 END,
    ends_at = CASE WHEN w.ends_at <= $2::bigint THEN $2::bigint + $3::bigint ELSE w.ends_at END
  RETURNING count, ends_at`;

/** Options of the shared counters. */
export interface PgRateWindowsOptions {
  /** How often this instance deletes windows that ended (default: once per window length). */
  sweepEveryMs?: number;
}

/**
 * Rate-limit windows in the shared database (table `rate_windows`, created in migrations.ts), so
 * every API instance of a clinic counts one window per account or address. Window ends come from
 * each instance's clock (keep them in sync with NTP; an offset moves a window's end by as much).
 * Ended windows are deleted by whichever instance's turn comes, at most once per window each.
 */
export function createPgRateWindows(db: pg.Pool | Sql, options: PgRateWindowsOptions = {}): RateWindows {
  const sql: Sql = 'connect' in db ? sqlOf(db) : db;
  let lastSweep = Number.NEGATIVE_INFINITY;
  return {
    async hit(key, windowMs, now) {
      const { rows } = await sql.query<{ count: number; ends_at: number | string }>(HIT, [key, now, windowMs]);
      if (now - lastSweep > (options.sweepEveryMs ?? windowMs)) {
        lastSweep = now;
        await sql.query('DELETE FROM rate_windows WHERE ends_at <= $1', [now]);
      }
      // BIGINT arrives as text from a pool without the stores' int8 parser (sql.ts); a millisecond time fits a double.
      return { count: rows[0]!.count, resetAt: Number(rows[0]!.ends_at) };
    },
  };
}
