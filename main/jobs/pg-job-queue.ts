import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { JobHandler, JobRunner } from './job-runner.js';
import { pgBossTables, type DeadLetterRow, type PgBossTables } from './pg-boss-tables.js';
import { createPgJobWorker, DEAD_LETTER_QUEUE, messageOf, type JobPayload } from './pg-job-worker.js';
import { listenForJobs, WAKEUP_CHANNEL, type PgJobWakeup } from './pg-job-wakeup.js';

export { DEAD_LETTER_QUEUE };

export interface PgJobQueueOptions {
  /** PostgreSQL URL (CLINDOC_DATABASE_URL); the queue opens and closes its own pool. */
  connectionString?: string;
  /** Or a pool the caller owns (left open by `stop`), of at least two connections: start-up holds one for a lock while it installs pg-boss and creates the queues. */
  pool?: pg.Pool;
  /** pg-boss's schema (default `pgboss`), created on first start. */
  schema?: string;
  handlers: Record<string, JobHandler>;
  logger: Logger;
  /** Jobs run at the same time by this process (CLINDOC_JOB_CONCURRENCY, default 1), per engine when `laneOf` is given. 0: enqueue only, never work. */
  concurrency: number;
  /** The engine a job waits on: each engine gets its own slots (pg-job-worker.ts). */
  laneOf?: (job: JobPayload) => Promise<string>;
  /** Attempts before a job is dead-lettered (default 5, as the SQLite runner). */
  maxAttempts?: number;
  /**
   * First retry delay in whole seconds (default 1). With `retryBackoff` pg-boss waits
   * delay × 2^(n-1) to twice that (jitter) before attempt n+1: 1-2 s, 2-4 s, 4-8 s, 8-16 s, the
   * SQLite runner's 1, 2, 4, 8 s with jitter so retries of many jobs do not arrive together.
   */
  retryDelaySeconds?: number;
  /** Exponential backoff between attempts (default true). */
  retryBackoff?: boolean;
  /** Seconds without a heartbeat after which a running job is taken back and retried (default 60). */
  expireInSeconds?: number;
  /** `expireInSeconds` per job kind, where one differs. */
  expireInSecondsByKind?: Record<string, number>;
  /** How often running jobs renew their lease (default a quarter of the shortest expiry, at least 0.5 s). */
  heartbeatSeconds?: number;
  /**
   * How often an idle worker looks for jobs (default 1). An enqueue on any instance wakes workers at
   * once (LISTEN/NOTIFY), so polling mostly finds retries whose delay has passed.
   */
  pollingIntervalSeconds?: number;
  /** How often some instance takes back expired jobs and archives finished ones (default 30, pg-boss's minimum is 1). */
  maintenanceIntervalSeconds?: number;
  /** Wait before a job that stopped on a full disk runs again, using up no attempt (default 5). */
  spaceRetrySeconds?: number;
}

/** A job whose attempts were used up; `message` is the caller-facing one and carries no patient data. */
export interface DeadLetter {
  id: string;
  kind: string;
  resourceId: string;
  accountId: string;
  attempts: number;
  message: string;
  /** Milliseconds since the epoch. */
  failedAt: number;
}

export interface QueueDepth {
  queued: number;
  active: number;
  oldestQueuedAgeSeconds: number | null;
}

export interface PgJobQueue extends JobRunner {
  /** Queues a job unless one for the same (kind, resourceId) is already waiting or running. */
  enqueue(kind: string, accountId: string, resourceId: string): Promise<void>;
  /** Resolves once pg-boss's schema and the queues exist (called by every other method); rejects for good if that failed. */
  ready(): Promise<void>;
  /** Dead letters, newest first, of one account or of all. */
  deadLetters(accountId?: string, limit?: number): Promise<DeadLetter[]>;
  /** Depth per job kind across every instance, for metrics. */
  stats(): Promise<Record<string, QueueDepth>>;
}

/**
 * The shared job queue of server mode: pg-boss on the clinic's PostgreSQL. Delivery is at least
 * once, so handlers must tolerate a second run of a job that already finished its work.
 */
export function createPgJobQueue(options: PgJobQueueOptions): PgJobQueue {
  const { logger, handlers } = options;
  if (!options.pool && !options.connectionString) throw new Error('the PostgreSQL job queue needs a pool or a connection string');
  const ownPool = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: Math.max(4, options.concurrency + 4), application_name: 'clindoc-jobs' });
  if (ownPool) pool.on('error', (err: Error & { code?: string }) => logger.warn({ code: err.code }, 'job queue database connection lost'));
  const schema = options.schema ?? 'pgboss';
  const tables = pgBossTables(pool, schema);
  const kinds = Object.keys(handlers);
  const queues = [...kinds, DEAD_LETTER_QUEUE];
  const maxAttempts = options.maxAttempts ?? 5;
  const defaultExpiry = options.expireInSeconds ?? 60;
  const expiry = (kind: string): number => options.expireInSecondsByKind?.[kind] ?? defaultExpiry;

  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
    schema,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // pg-boss reports maintenance failures as events; their text can quote SQL values, so only the code is logged.
  boss.on('error', (err: Error & { code?: string }) => logger.warn({ code: err.code, errName: err.name }, 'job queue maintenance failed'));

  // pg-boss cannot be started again after a failed start, so neither can the queue: the process
  // exits and its service manager starts it again. Instances take turns at installing (installQueues).
  let readyPromise: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    readyPromise ??= installQueues(pool, boss, schema, kinds);
    return readyPromise;
  };

  let stopped: Promise<void> | undefined;
  let starting: Promise<void> | undefined;
  let wakeup: PgJobWakeup | undefined;
  const worker = createPgJobWorker({
    boss, tables, handlers, logger, expiry,
    concurrency: options.concurrency,
    heartbeatMs: 1000 * (options.heartbeatSeconds ?? Math.max(0.5, Math.min(defaultExpiry, ...kinds.map(expiry)) / 4)),
    pollMs: 1000 * (options.pollingIntervalSeconds ?? 1),
    spaceRetrySeconds: options.spaceRetrySeconds ?? 5,
    ...(options.laneOf ? { laneOf: options.laneOf } : {}),
  });

  return {
    ready,
    async enqueue(kind, accountId, resourceId) {
      if (!handlers[kind]) throw new Error(`no handler for job kind ${kind}`);
      await ready();
      await sendOnce(pool, tables, boss, { kind, accountId, resourceId }, {
        singletonKey: resourceId,
        retryLimit: maxAttempts - 1,
        retryDelay: options.retryDelaySeconds ?? 1,
        retryBackoff: options.retryBackoff ?? true,
        expireInSeconds: expiry(kind),
        deadLetter: DEAD_LETTER_QUEUE,
      });
      worker.wake();
    },
    start() {
      starting ??= (async () => {
        await ready();
        if (stopped || options.concurrency <= 0) return;
        wakeup = await listenForJobs(pool, logger, () => worker.wake());
        if (stopped) return wakeup.stop();
        worker.start();
      })();
      return starting;
    },
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        wakeup?.stop();
        await worker.stop(graceMs);
        // A start still under way finishes first: it sees `stopped` and starts no worker.
        await Promise.allSettled([readyPromise, starting]);
        await boss.stop({ graceful: false, close: false });
        if (ownPool) await pool.end();
      })();
      return stopped;
    },
    async idle() {
      await ready();
      for (;;) {
        if (worker.runningCount() === 0 && (await tables.countOpen(queues)) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async deadLetters(accountId, limit = 100) {
      await ready();
      const rows = await tables.deadLetters(DEAD_LETTER_QUEUE, accountId ?? null, limit);
      return rows.map(toDeadLetter);
    },
    async stats() {
      await ready();
      const out: Record<string, QueueDepth> = {};
      for (const kind of kinds) out[kind] = { queued: 0, active: 0, oldestQueuedAgeSeconds: null };
      for (const row of await tables.depth(kinds)) out[row.name] = { queued: row.queued, active: row.active, oldestQueuedAgeSeconds: row.oldestQueuedAgeSeconds };
      return out;
    },
  };
}

/**
 * Installs pg-boss's schema and creates the queues. Instances starting together on a new database
 * must take turns: pg-boss creates each queue's table and attaches it (DDL) with no lock, which
 * deadlocked, and an instance that waited on pg-boss's own install lock could still fail with a
 * duplicate 'pgboss' schema (its IF NOT EXISTS check does not see the schema committed during the
 * wait). A session advisory lock, held on a connection of its own through the install and the
 * queue creation, lets the next instance find everything in place.
 */
async function installQueues(pool: pg.Pool, boss: PgBoss, schema: string, kinds: string[]): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`${schema}.start`]);
    try {
      await boss.start();
      // The dead-letter queue first: the others name it, and the database checks that it exists.
      await boss.createQueue(DEAD_LETTER_QUEUE, { name: DEAD_LETTER_QUEUE, policy: 'standard' });
      for (const kind of kinds) await boss.createQueue(kind, { name: kind, policy: 'standard', deadLetter: DEAD_LETTER_QUEUE });
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`${schema}.start`]);
    }
  } catch (err) {
    lock.release(true); // closed, so no lock can stay behind on a pooled connection
    throw err;
  }
  lock.release();
}

/**
 * Sends a job in one transaction unless one for the same (kind, resourceId) is already waiting
 * or running; the key lock makes two racing sends see each other.
 */
async function sendOnce(pool: pg.Pool, tables: PgBossTables, boss: PgBoss, payload: JobPayload, send: Omit<PgBoss.SendOptions, 'db'>): Promise<void> {
  const { kind, resourceId } = payload;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await tables.lockKey(client, kind, resourceId);
    if (!(await tables.hasOpenJob(client, kind, resourceId))) {
      await boss.send(kind, payload, { ...send, db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) } });
      // Delivered at commit to every listening worker, on any instance.
      await client.query('SELECT pg_notify($1, $2)', [WAKEUP_CHANNEL, kind]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function toDeadLetter(row: DeadLetterRow): DeadLetter {
  const data = (row.data ?? {}) as Partial<JobPayload>;
  const attempts = (row.output as { attempts?: unknown } | null)?.attempts;
  return {
    id: row.id,
    kind: String(data.kind ?? ''),
    resourceId: String(data.resourceId ?? ''),
    accountId: String(data.accountId ?? ''),
    attempts: typeof attempts === 'number' ? attempts : row.retryLimit + 1,
    message: messageOf(row.output),
    failedAt: row.createdOn.getTime(),
  };
}
