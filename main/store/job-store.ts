import type { Db } from './database.js';
import type { JobRecord, JobStore } from '../services/storage.js';

interface Row { id: string; kind: string; account_id: string; resource_id: string; status: JobRecord['status']; attempts: number; run_after: number; last_error: string | null }

const toJob = (r: Row): JobRecord => ({
  id: r.id, kind: r.kind, accountId: r.account_id, resourceId: r.resource_id, status: r.status, attempts: r.attempts,
  runAfter: r.run_after, lastError: r.last_error,
});

/** Which job kinds one runner takes: `only` these, or all `except` these (default all). */
export interface JobKinds {
  only?: readonly string[];
  except?: readonly string[];
}

/** SQL condition and its values for a kind filter (kinds are code constants, still bound as values). */
function kindFilter(kinds: JobKinds): { sql: string; values: string[] } {
  if (kinds.only?.length) return { sql: ` AND kind IN (${kinds.only.map(() => '?').join(',')})`, values: [...kinds.only] };
  if (kinds.except?.length) return { sql: ` AND kind NOT IN (${kinds.except.map(() => '?').join(',')})`, values: [...kinds.except] };
  return { sql: '', values: [] };
}

/**
 * SQLite durable job queue: a job is a row, claiming it is one atomic UPDATE ... RETURNING.
 * `kinds` lets two runners share the table: long model downloads run beside notes and
 * transcriptions instead of in front of them.
 */
export function createJobStore(db: Db, kinds: JobKinds = {}): JobStore {
  const filter = kindFilter(kinds);
  const enqueue = db.prepare(
    `INSERT INTO jobs (id, kind, account_id, resource_id, status, attempts, run_after, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
  );
  const claim = db.prepare(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ?
     WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after <= ?${filter.sql} ORDER BY run_after, created_at LIMIT 1)
     RETURNING *`,
  );
  const finish = db.prepare('UPDATE jobs SET status = ?, last_error = ?, updated_at = ? WHERE id = ?');
  const requeue = db.prepare(`UPDATE jobs SET status = 'queued', run_after = ?, last_error = ?, updated_at = ?, attempts = MAX(0, attempts - ?) WHERE id = ?`);
  const recover = db.prepare(`UPDATE jobs SET status = 'queued', updated_at = ? WHERE status = 'running'${filter.sql}`);
  const get = db.prepare('SELECT * FROM jobs WHERE id = ?');
  const open = db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')${filter.sql}`);
  return {
    enqueue: async (j) => void enqueue.run(j.id, j.kind, j.accountId, j.resourceId, j.runAfter, Date.now(), Date.now()),
    claim: async (now) => {
      // `all`, not `get`: `get` stops at the first row and resets the statement, and the reset's
      // commit error is dropped, so on a full disk (SQLITE_FULL at commit) it handed out a job the
      // database never marked running, again at every call: the runner claimed it without end.
      // Run to the end, the commit's failure is thrown as any write's.
      const [row] = claim.all(now, now, ...filter.values) as Row[];
      return row ? toJob(row) : undefined;
    },
    finish: async (id, status, error) => void finish.run(status, error, Date.now(), id),
    requeue: async (id, runAfter, error, refundAttempt = false) => void requeue.run(runAfter, error, Date.now(), refundAttempt ? 1 : 0, id),
    recoverInterrupted: async () => recover.run(Date.now(), ...filter.values).changes,
    countOpen: async () => (open.get(...filter.values) as { n: number }).n,
    get: async (id) => {
      const row = get.get(id) as Row | undefined;
      return row ? toJob(row) : undefined;
    },
  };
}

/**
 * The SQLite runner's dead letters: jobs of an account that failed their last attempt, newest
 * first. Model downloads are the device's, not an account's: left out.
 */
export function createSqliteDeadLetters(db: Db, except: readonly string[]) {
  const filter = kindFilter({ except });
  const list = db.prepare(
    `SELECT id, kind, resource_id, attempts, last_error, updated_at FROM jobs
     WHERE account_id = ? AND status = 'failed'${filter.sql} ORDER BY updated_at DESC, id DESC LIMIT ?`,
  );
  return async (accountId: string, limit: number) =>
    (list.all(accountId, ...filter.values, limit) as Array<{ id: string; kind: string; resource_id: string; attempts: number; last_error: string | null; updated_at: number }>)
      .map((r) => ({ id: r.id, kind: r.kind, resourceId: r.resource_id, attempts: r.attempts, message: r.last_error ?? 'job failed', failedAt: r.updated_at }));
}
