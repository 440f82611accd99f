import type { Db } from './database.js';
import type { JobRecord, JobStore } from '../services/storage.js';

interface Row { id: string; kind: string; account_id: string; resource_id: string; status: JobRecord['status']; attempts: number; run_after: number; last_error: string | null }

const toJob = (r: Row): JobRecord => ({
  id: r.id, kind: r.kind, accountId: r.account_id, resourceId: r.resource_id, status: r.status, attempts: r.attempts,
  runAfter: r.run_after, lastError: r.last_error,
});

/** SQLite durable job queue: a job is a row, claiming it is one atomic UPDATE ... RETURNING. */
export function createJobStore(db: Db): JobStore {
  const enqueue = db.prepare(
    `INSERT INTO jobs (id, kind, account_id, resource_id, status, attempts, run_after, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
  );
  const claim = db.prepare(
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ?
     WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after <= ? ORDER BY run_after, created_at LIMIT 1)
     RETURNING *`,
  );
  const finish = db.prepare('UPDATE jobs SET status = ?, last_error = ?, updated_at = ? WHERE id = ?');
  const requeue = db.prepare(`UPDATE jobs SET status = 'queued', run_after = ?, last_error = ?, updated_at = ?, attempts = MAX(0, attempts - ?) WHERE id = ?`);
  const recover = db.prepare(`UPDATE jobs SET status = 'queued', updated_at = ? WHERE status = 'running'`);
  const get = db.prepare('SELECT * FROM jobs WHERE id = ?');
  const open = db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')`);
  return {
    enqueue: (j) => void enqueue.run(j.id, j.kind, j.accountId, j.resourceId, j.runAfter, Date.now(), Date.now()),
    claim: (now) => {
      const row = claim.get(now, now) as Row | undefined;
      return row ? toJob(row) : undefined;
    },
    finish: (id, status, error) => void finish.run(status, error, Date.now(), id),
    requeue: (id, runAfter, error, refundAttempt = false) => void requeue.run(runAfter, error, Date.now(), refundAttempt ? 1 : 0, id),
    recoverInterrupted: () => recover.run(Date.now()).changes,
    countOpen: () => (open.get() as { n: number }).n,
    get: (id) => {
      const row = get.get(id) as Row | undefined;
      return row ? toJob(row) : undefined;
    },
  };
}
