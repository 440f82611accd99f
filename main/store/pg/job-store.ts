import type { JobRecord, JobStore } from '../../services/storage.js';
import type { JobKinds } from '../job-store.js';
import { claimantGone } from './instance-lease.js';
import type { Sql } from './sql.js';

interface Row { id: string; kind: string; account_id: string; resource_id: string; status: JobRecord['status']; attempts: number; run_after: number; last_error: string | null }

const toJob = (r: Row): JobRecord => ({
  id: r.id, kind: r.kind, accountId: r.account_id, resourceId: r.resource_id, status: r.status, attempts: r.attempts,
  runAfter: r.run_after, lastError: r.last_error,
});

/** SQL condition on `kind` for a runner's filter, with the kinds bound as one array parameter at `$index`. */
function kindFilter(kinds: JobKinds, index: number): { sql: string; values: string[][] } {
  if (kinds.only?.length) return { sql: ` AND kind = ANY($${index}::text[])`, values: [[...kinds.only]] };
  if (kinds.except?.length) return { sql: ` AND kind <> ALL($${index}::text[])`, values: [[...kinds.except]] };
  return { sql: '', values: [] };
}

/**
 * PostgreSQL durable job queue shared by every Clindoc instance on the database. A claim locks
 * the oldest ready row with FOR UPDATE SKIP LOCKED and marks it running in the same statement,
 * so two processes claiming at once take different jobs and neither waits on the other.
 * A claim records `instanceId` (the instance lease); `recoverInterrupted` requeues only running
 * jobs whose instance is gone, so one instance starting never takes back a job another live
 * instance is running. Without an id, claims record none and any recovery takes them back.
 */
export function createPgJobStore(sql: Sql, kinds: JobKinds = {}, instanceId?: number): JobStore {
  const claim = kindFilter(kinds, 4);
  const plain = kindFilter(kinds, 1);
  const recover = kindFilter(kinds, 2);
  return {
    async enqueue(j) {
      const now = Date.now();
      await sql.query(
        `INSERT INTO jobs (id, kind, account_id, resource_id, status, attempts, run_after, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'queued', 0, $5, $6, $7)`,
        [j.id, j.kind, j.accountId, j.resourceId, j.runAfter, now, now],
      );
    },
    async claim(now) {
      const { rows } = await sql.query<Row>(
        `WITH next AS (
           SELECT id FROM jobs WHERE status = 'queued' AND run_after <= $2${claim.sql}
           ORDER BY run_after, created_at LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, updated_at = $1, claimed_by = $3
         FROM next WHERE jobs.id = next.id
         RETURNING jobs.*`,
        [Date.now(), now, instanceId ?? null, ...claim.values],
      );
      return rows[0] ? toJob(rows[0]) : undefined;
    },
    async finish(id, status, error) {
      await sql.query('UPDATE jobs SET status = $1, last_error = $2, updated_at = $3 WHERE id = $4', [status, error, Date.now(), id]);
    },
    async requeue(id, runAfter, error, refundAttempt = false) {
      await sql.query(
        `UPDATE jobs SET status = 'queued', run_after = $1, last_error = $2, updated_at = $3, attempts = GREATEST(0, attempts - $4), claimed_by = NULL WHERE id = $5`,
        [runAfter, error, Date.now(), refundAttempt ? 1 : 0, id],
      );
    },
    async recoverInterrupted() {
      const { rowCount } = await sql.query(`UPDATE jobs SET status = 'queued', updated_at = $1, claimed_by = NULL WHERE status = 'running' AND ${claimantGone('claimed_by')}${recover.sql}`, [Date.now(), ...recover.values]);
      return rowCount;
    },
    async get(id) {
      const row = (await sql.query<Row>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0];
      return row ? toJob(row) : undefined;
    },
    async countOpen() {
      return (await sql.query<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')${plain.sql}`, plain.values)).rows[0]!.n;
    },
  };
}
