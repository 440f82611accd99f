import type pg from 'pg';

/**
 * The few statements pg-boss 10 has no call for, written against its own tables (schema version 24:
 * `<schema>.job`, partitioned by queue name, and `<schema>.archive`). Kept in this one file so an
 * upgrade of pg-boss has one place to check; the PostgreSQL queue tests exercise every statement.
 *
 * job states are an enum ordered created < retry < active < completed < cancelled < failed, so
 * `state < 'active'` means waiting and `state < 'completed'` means open.
 */
export interface PgBossTables {
  /** Serialises enqueues of one (kind, resource) inside the caller's transaction. */
  lockKey(client: pg.ClientBase, kind: string, resourceId: string): Promise<void>;
  /** Whether a job for this resource is waiting, waiting to retry, or running. */
  hasOpenJob(client: pg.ClientBase, kind: string, resourceId: string): Promise<boolean>;
  /**
   * Pushes the expiry of running jobs `seconds` past now. pg-boss fails a job whose
   * `started_on + expire_in` has passed; renewing `expire_in` turns that into "no sign of life for
   * `seconds`", so a long transcription is never taken from a live worker, yet a killed one's job
   * is freed soon. Returns the ids still held (a missing id was expired and may run elsewhere).
   */
  heartbeat(kind: string, ids: string[], seconds: number): Promise<string[]>;
  /**
   * Puts a running job back in the queue without using up an attempt (a full disk, a worker that
   * stops before the job finished): the next fetch counts the attempt again.
   */
  release(kind: string, id: string, delaySeconds: number): Promise<boolean>;
  /** Waiting and running jobs per queue, and the age of the oldest waiting one. */
  depth(names: string[]): Promise<Array<{ name: string; queued: number; active: number; oldestQueuedAgeSeconds: number | null }>>;
  /** Open jobs (waiting, retrying, running) in these queues, across every instance. */
  countOpen(names: string[]): Promise<number>;
  /** Jobs that reached the dead-letter queue, newest first, from the live table and the archive. */
  deadLetters(queue: string, accountId: string | null, limit: number): Promise<DeadLetterRow[]>;
}

export interface DeadLetterRow {
  id: string;
  data: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
  retryLimit: number;
  createdOn: Date;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;

/** `pool` runs the statements that need no transaction; `schema` is pg-boss's schema name. */
export function pgBossTables(pool: pg.Pool, schema: string): PgBossTables {
  // The schema name is spliced into SQL, so only what pg-boss itself accepts gets through.
  if (!SCHEMA_NAME.test(schema)) throw new Error('pg-boss schema must be a plain PostgreSQL name');
  const job = `${schema}.job`;
  const archive = `${schema}.archive`;

  return {
    async lockKey(client, kind, resourceId) {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`clindoc-job:${kind}:${resourceId}`]);
    },
    async hasOpenJob(client, kind, resourceId) {
      const { rowCount } = await client.query(
        `SELECT 1 FROM ${job} WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`,
        [kind, resourceId],
      );
      return (rowCount ?? 0) > 0;
    },
    async heartbeat(kind, ids, seconds) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE ${job} SET expire_in = (now() - started_on) + make_interval(secs => $3)
         WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'
         RETURNING id`,
        [kind, ids, seconds],
      );
      return rows.map((r) => r.id);
    },
    async release(kind, id, delaySeconds) {
      // The fetch adds one to retry_count only when started_on is set, so a first attempt is
      // given back by clearing started_on and a later one by taking one off the count.
      const { rowCount } = await pool.query(
        `UPDATE ${job} SET state = 'retry',
           start_after = now() + make_interval(secs => $3),
           started_on = CASE WHEN retry_count = 0 THEN NULL ELSE started_on END,
           retry_count = GREATEST(retry_count - 1, 0)
         WHERE name = $1 AND id = $2 AND state = 'active'`,
        [kind, id, delaySeconds],
      );
      return (rowCount ?? 0) > 0;
    },
    async depth(names) {
      const { rows } = await pool.query<{ name: string; queued: string; active: string; oldest: string | null }>(
        `SELECT name,
           count(*) FILTER (WHERE state < 'active') AS queued,
           count(*) FILTER (WHERE state = 'active') AS active,
           EXTRACT(epoch FROM now() - min(created_on) FILTER (WHERE state < 'active')) AS oldest
         FROM ${job} WHERE name = ANY($1) AND state < 'completed' GROUP BY name`,
        [names],
      );
      return rows.map((r) => ({
        name: r.name, queued: Number(r.queued), active: Number(r.active),
        oldestQueuedAgeSeconds: r.oldest === null ? null : Math.max(0, Number(r.oldest)),
      }));
    },
    async countOpen(names) {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${job} WHERE name = ANY($1) AND state < 'completed'`,
        [names],
      );
      return Number(rows[0]?.n ?? 0);
    },
    async deadLetters(queue, accountId, limit) {
      const where = `name = $1 AND ($2::text IS NULL OR data->>'accountId' = $2)`;
      const columns = `id, data, output, retry_limit AS "retryLimit", created_on AS "createdOn"`;
      const { rows } = await pool.query<DeadLetterRow>(
        `SELECT * FROM (
           SELECT ${columns} FROM ${job} WHERE ${where}
           UNION ALL
           SELECT ${columns} FROM ${archive} WHERE ${where}
         ) d ORDER BY "createdOn" DESC, id LIMIT $3`,
        [queue, accountId, limit],
      );
      return rows;
    },
  };
}
