import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { DomainError, isOutOfSpace } from '../services/errors.js';
import type { JobHandler, JobRunner } from './job-runner.js';
import { pgBossTables, type DeadLetterRow } from './pg-boss-tables.js';

/** The queue that collects jobs whose last attempt failed; its worker calls `giveUp`. */
export const DEAD_LETTER_QUEUE = 'clindoc_dead_letters';

export interface PgJobQueueOptions {
  /** PostgreSQL URL (CLINDOC_DATABASE_URL); the queue opens and closes its own pool. */
  connectionString?: string;
  /** Or a pool the caller owns (left open by `stop`). */
  pool?: pg.Pool;
  /** pg-boss's schema (default `pgboss`), created on first start. */
  schema?: string;
  handlers: Record<string, JobHandler>;
  logger: Logger;
  /** Jobs run at the same time by this process (CLINDOC_JOB_CONCURRENCY, default 1). 0: enqueue only, never work. */
  concurrency: number;
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
  /** How often an idle worker looks for jobs (default 1); a local enqueue or a finished job looks at once. */
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
  /** Resolves once pg-boss's schema and the queues exist (called by every other method). */
  ready(): Promise<void>;
  /** Dead letters, newest first, of one account or of all. */
  deadLetters(accountId?: string, limit?: number): Promise<DeadLetter[]>;
  /** Depth per job kind across every instance, for metrics. */
  stats(): Promise<Record<string, QueueDepth>>;
}

type Payload = { kind: string; accountId: string; resourceId: string };
interface Running { queue: string; id: string; done: Promise<void>; abandoned: boolean }

/**
 * The shared job queue of server mode: pg-boss on the clinic's PostgreSQL. Delivery is at least
 * once, so handlers must tolerate a second run of a job that already finished its work.
 */
export function createPgJobQueue(options: PgJobQueueOptions): PgJobQueue {
  const { logger, handlers } = options;
  if (!options.pool && !options.connectionString) throw new Error('the PostgreSQL job queue needs a pool or a connection string');
  const ownPool = !options.pool;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: Math.max(4, options.concurrency + 3), application_name: 'clindoc-jobs' });
  if (ownPool) pool.on('error', (err: Error & { code?: string }) => logger.warn({ code: err.code }, 'job queue database connection lost'));
  const schema = options.schema ?? 'pgboss';
  const tables = pgBossTables(pool, schema);
  const kinds = Object.keys(handlers);
  const queues = [...kinds, DEAD_LETTER_QUEUE];
  const maxAttempts = options.maxAttempts ?? 5;
  const expiry = (kind: string): number => options.expireInSecondsByKind?.[kind] ?? options.expireInSeconds ?? 60;
  const heartbeatMs = 1000 * (options.heartbeatSeconds ?? Math.max(0.5, Math.min(expiry(''), ...kinds.map(expiry)) / 4));
  const pollMs = 1000 * (options.pollingIntervalSeconds ?? 1);
  const spaceRetrySeconds = options.spaceRetrySeconds ?? 5;

  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
    schema,
    schedule: false,
    supervise: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // pg-boss reports maintenance failures as events; their text can quote SQL values, so only the code is logged.
  boss.on('error', (err: Error & { code?: string }) => logger.warn({ code: err.code, errName: err.name }, 'job queue maintenance failed'));

  let readyPromise: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    readyPromise ??= (async () => {
      await boss.start();
      // The dead-letter queue first: the others name it, and the database checks that it exists.
      await boss.createQueue(DEAD_LETTER_QUEUE, { name: DEAD_LETTER_QUEUE, policy: 'standard' });
      for (const kind of kinds) await boss.createQueue(kind, { name: kind, policy: 'standard', deadLetter: DEAD_LETTER_QUEUE });
    })();
    readyPromise.catch(() => (readyPromise = undefined));
    return readyPromise;
  };

  let working = false;
  let stopped: Promise<void> | undefined;
  let pumping = false;
  let pumpAgain = false;
  let rotation = 0;
  let pollTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  const running = new Map<string, Running>();

  // A job given back by `stop` may still finish here; its row then belongs to whoever runs it next.
  const finishJob = async (job: Running, work: () => Promise<void>, output?: object): Promise<void> => {
    await work();
    if (!job.abandoned) await boss.complete(job.queue, job.id, output);
  };

  const runJob = async (job: Running, data: Payload, attempt: number, lastAttempt: boolean): Promise<void> => {
    const log = logger.child({ jobId: job.id, kind: job.queue, attempt });
    const startedAt = Date.now();
    try {
      await finishJob(job, () => handlers[job.queue]!.run(data.resourceId));
      log.info({ durationMs: Date.now() - startedAt }, 'job done');
    } catch (err) {
      if (job.abandoned) return;
      const errKind = err instanceof DomainError ? err.kind : 'internal';
      if (isOutOfSpace(err)) {
        // Not the job's fault: it waits for room without using up one of its attempts.
        log.warn('the disk is full: the job waits for space');
        await tables.release(job.queue, job.id, spaceRetrySeconds);
        return;
      }
      // Messages of domain errors are written for callers and carry no patient data.
      const message = err instanceof DomainError ? err.message : 'job failed';
      await boss.fail(job.queue, job.id, { message, attempts: attempt });
      if (lastAttempt) log.error({ errKind }, 'job failed; giving up');
      else log.warn({ errKind }, 'job failed; will retry');
    }
  };

  const runDeadLetter = async (job: Running, data: Payload, output: unknown): Promise<void> => {
    const handler = handlers[data.kind];
    const log = logger.child({ jobId: job.id, kind: data.kind });
    try {
      if (!handler) throw new Error('no handler for this job kind');
      // Completing a job replaces its output, so the dead letter keeps its message and attempts for `deadLetters`.
      await finishJob(job, async () => handler.giveUp(data.resourceId, messageOf(output)), (output ?? undefined) as object | undefined);
    } catch (err) {
      if (job.abandoned) return;
      log.error({ errKind: err instanceof DomainError ? err.kind : 'internal' }, 'giving up on a job failed; will try again');
      // The dead letter keeps the job's own message: the listing shows why the job failed.
      await boss.fail(job.queue, job.id, (output ?? { message: 'job failed' }) as object);
    }
  };

  const launch = (queue: string, fetched: PgBoss.JobWithMetadata<Payload>): void => {
    const job: Running = { queue, id: fetched.id, done: Promise.resolve(), abandoned: false };
    const attempt = fetched.retryCount + 1;
    const work = queue === DEAD_LETTER_QUEUE
      ? runDeadLetter(job, fetched.data, fetched.output)
      : runJob(job, fetched.data, attempt, fetched.retryCount >= fetched.retryLimit);
    job.done = work
      .catch((err: Error & { code?: string }) => logger.error({ jobId: job.id, code: err.code, errName: err.name }, 'job bookkeeping failed; the job will be retried when it expires'))
      .finally(() => {
        running.delete(job.id);
        void pump();
      });
    running.set(job.id, job);
  };

  const pump = async (): Promise<void> => {
    if (!working) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      // Kinds take turns being asked first, so a long backlog of one kind cannot starve the others.
      for (let i = 0; i < queues.length && working; i++) {
        const free = options.concurrency - running.size;
        if (free <= 0) break;
        const queue = queues[(rotation + i) % queues.length]!;
        const jobs = await boss.fetch<Payload>(queue, { batchSize: free, includeMetadata: true });
        if (jobs.length === 0) continue;
        // The expiry a job was sent with is the enqueuing instance's; the worker's own counts from here.
        if (queue !== DEAD_LETTER_QUEUE) await tables.heartbeat(queue, jobs.map((j) => j.id), expiry(queue)).catch(() => undefined);
        for (const fetched of jobs) launch(queue, fetched);
      }
      rotation = (rotation + 1) % queues.length;
    } catch (err) {
      logger.warn({ code: (err as { code?: string }).code }, 'job queue could not be read');
    } finally {
      pumping = false;
      if (pumpAgain) {
        pumpAgain = false;
        void pump();
      }
    }
  };

  const beat = async (): Promise<void> => {
    const byKind = new Map<string, string[]>();
    for (const job of running.values()) {
      if (job.queue === DEAD_LETTER_QUEUE || job.abandoned) continue;
      byKind.set(job.queue, [...(byKind.get(job.queue) ?? []), job.id]);
    }
    for (const [kind, ids] of byKind) {
      try {
        const held = new Set(await tables.heartbeat(kind, ids, expiry(kind)));
        const lost = ids.filter((id) => !held.has(id));
        if (lost.length > 0) logger.warn({ kind, jobIds: lost }, 'running jobs expired before their heartbeat; another worker may run them again');
      } catch (err) {
        logger.warn({ code: (err as { code?: string }).code }, 'job heartbeat failed');
      }
    }
  };

  const shutdown = async (graceMs: number): Promise<void> => {
    working = false;
    if (pollTimer) clearInterval(pollTimer);
    await Promise.race([
      Promise.allSettled([...running.values()].map((j) => j.done)),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
    if (heartbeatTimer) clearInterval(heartbeatTimer);
    // Jobs still running go back to the queue for another worker, without costing them an attempt.
    for (const job of running.values()) {
      job.abandoned = true;
      await tables.release(job.queue, job.id, 0).catch(() => undefined);
    }
    if (readyPromise) await readyPromise.catch(() => undefined);
    await boss.stop({ graceful: false, close: false });
    if (ownPool) await pool.end();
  };

  return {
    ready,
    async enqueue(kind, accountId, resourceId) {
      if (!handlers[kind]) throw new Error(`no handler for job kind ${kind}`);
      await ready();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await tables.lockKey(client, kind, resourceId);
        if (!(await tables.hasOpenJob(client, kind, resourceId))) {
          const payload: Payload = { kind, accountId, resourceId };
          await boss.send(kind, payload, {
            singletonKey: resourceId,
            retryLimit: maxAttempts - 1,
            retryDelay: options.retryDelaySeconds ?? 1,
            retryBackoff: options.retryBackoff ?? true,
            expireInSeconds: expiry(kind),
            deadLetter: DEAD_LETTER_QUEUE,
            db: { executeSql: (text: string, values?: unknown[]) => client.query(text, values) },
          });
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      if (working) setImmediate(() => void pump());
    },
    async start() {
      if (working || stopped) return;
      await ready();
      if (options.concurrency <= 0 || working || stopped) return;
      working = true;
      pollTimer = setInterval(() => void pump(), pollMs);
      heartbeatTimer = setInterval(() => void beat(), heartbeatMs);
      pollTimer.unref();
      heartbeatTimer.unref();
      void pump();
    },
    stop(graceMs = 10_000) {
      stopped ??= shutdown(graceMs);
      return stopped;
    },
    async idle() {
      await ready();
      for (;;) {
        if (running.size === 0 && (await tables.countOpen(queues)) === 0) return;
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

/** Only the queue's own `{message}` is shown; pg-boss's texts (a timeout, a shutdown) are replaced by ours. */
function messageOf(output: unknown): string {
  const o = output as { message?: unknown; value?: { message?: unknown } } | null;
  if (typeof o?.message === 'string') return o.message;
  if (typeof o?.value?.message === 'string' && o.value.message.includes('timeout')) return 'the worker running the job stopped responding';
  return 'job failed';
}

function toDeadLetter(row: DeadLetterRow): DeadLetter {
  const data = (row.data ?? {}) as Partial<Payload>;
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
