import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { DomainError, isOutOfSpace } from '../services/errors.js';
import { MAX_LANES, type JobHandler } from './job-runner.js';
import type { PgBossTables } from './pg-boss-tables.js';

/** The queue that collects jobs whose last attempt failed; its worker calls `giveUp`. */
export const DEAD_LETTER_QUEUE = 'clindoc_dead_letters';

/** What every job carries; ids only, never patient data. */
export interface JobPayload {
  kind: string;
  accountId: string;
  resourceId: string;
}

export interface PgJobWorkerOptions {
  boss: PgBoss;
  tables: PgBossTables;
  handlers: Record<string, JobHandler>;
  logger: Logger;
  concurrency: number;
  /** Lease of a running job of this kind, renewed by every heartbeat. */
  expiry(kind: string): number;
  heartbeatMs: number;
  pollMs: number;
  spaceRetrySeconds: number;
  /**
   * The engine a job's work waits on (as the SQLite runner's `laneOf`): with it each engine has
   * `concurrency` slots of its own, up to {@link MAX_LANES} engines at once, so a hung server's
   * jobs never hold the slots other engines' jobs need.
   */
  laneOf?: (job: JobPayload) => Promise<string>;
}

/** Seconds a job whose engine has no free slot waits before it is offered again (no attempt spent). */
const LANE_WAIT_SECONDS = 1;

export interface PgJobWorker {
  start(): void;
  /** Looks for jobs now (a local enqueue); does nothing while stopped. */
  wake(): void;
  /** Stops fetching, waits up to `graceMs` for running jobs and gives the rest back to the queue. */
  stop(graceMs: number): Promise<void>;
  /** Jobs this process is running now. */
  runningCount(): number;
}

interface Running { queue: string; id: string; done: Promise<void>; abandoned: boolean; lane?: string }

/**
 * The working half of the PostgreSQL queue: fetches jobs through pg-boss (which locks each row
 * with SKIP LOCKED, so two workers never take the same job), runs handlers, renews leases, and
 * runs `giveUp` for what reaches the dead-letter queue. pg-boss's own `work()` is not used: it
 * fails a job once it runs longer than its expiry, even while it is alive and well.
 */
export function createPgJobWorker(options: PgJobWorkerOptions): PgJobWorker {
  const { boss, tables, handlers, logger, expiry } = options;
  const queues = [...Object.keys(handlers), DEAD_LETTER_QUEUE];
  let working = false;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  let rotation = 0;
  let pollTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  const running = new Map<string, Running>();
  // Jobs running per engine, when jobs have lanes.
  const lanes = new Map<string, number>();
  const slots = options.laneOf ? options.concurrency * MAX_LANES : options.concurrency;

  const launch = (queue: string, fetched: PgBoss.JobWithMetadata<JobPayload>, lane?: string): void => {
    const job: Running = { queue, id: fetched.id, done: Promise.resolve(), abandoned: false, ...(lane !== undefined ? { lane } : {}) };
    if (lane !== undefined) lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
    const work = queue === DEAD_LETTER_QUEUE
      ? runDeadLetter(options, job, fetched.data, fetched.output)
      : runJob(options, job, fetched.data, fetched.retryCount + 1, fetched.retryCount >= fetched.retryLimit);
    job.done = work
      .catch((err: Error & { code?: string }) => logger.error({ jobId: job.id, code: err.code, errName: err.name }, 'job bookkeeping failed; the job runs again when its lease lapses'))
      .finally(() => {
        running.delete(job.id);
        if (job.lane !== undefined) lanes.set(job.lane, lanes.get(job.lane)! - 1);
        void pump();
      });
    running.set(job.id, job);
  };

  const fetchJobs = async (): Promise<void> => {
    // Kinds take turns being asked first, so a long backlog of one kind cannot starve the others.
    for (let i = 0; i < queues.length && working; i++) {
      const free = slots - running.size;
      if (free <= 0) break;
      const queue = queues[(rotation + i) % queues.length]!;
      const jobs = await boss.fetch<JobPayload>(queue, { batchSize: free, includeMetadata: true });
      if (jobs.length === 0) continue;
      // The lease a job was sent with is the enqueuing instance's; this worker's counts from here.
      if (queue !== DEAD_LETTER_QUEUE) await tables.heartbeat(queue, jobs.map((j) => j.id), expiry(queue)).catch(() => undefined);
      for (const fetched of jobs) {
        const lane = options.laneOf && queue !== DEAD_LETTER_QUEUE ? await options.laneOf(fetched.data).catch(() => 'default') : undefined;
        if (lane !== undefined && (lanes.get(lane) ?? 0) >= options.concurrency) {
          // Its engine's slots are taken: back to the queue for a moment, without spending an attempt.
          await tables.release(queue, fetched.id, LANE_WAIT_SECONDS).catch(() => undefined);
          continue;
        }
        launch(queue, fetched, lane);
      }
    }
    rotation = (rotation + 1) % queues.length;
  };

  const pump = (): Promise<void> => {
    if (!working) return Promise.resolve();
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = fetchJobs()
      .catch((err: { code?: string }) => logger.warn({ code: err.code }, 'job queue could not be read'))
      .finally(() => {
        pumping = undefined;
        if (pumpAgain) {
          pumpAgain = false;
          void pump();
        }
      });
    return pumping;
  };

  return {
    start() {
      if (working || options.concurrency <= 0) return;
      working = true;
      pollTimer = setInterval(() => void pump(), options.pollMs);
      heartbeatTimer = setInterval(() => void renewLeases(options, running.values()), options.heartbeatMs);
      pollTimer.unref();
      heartbeatTimer.unref();
      void pump();
    },
    wake() {
      if (working) setImmediate(() => void pump());
    },
    async stop(graceMs) {
      working = false;
      if (pollTimer) clearInterval(pollTimer);
      // A fetch in flight lands its jobs in `running` before the wait begins.
      await pumping;
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
    },
    runningCount: () => running.size,
  };
}

/** What running one job needs from the worker's options. */
type JobRunDeps = Pick<PgJobWorkerOptions, 'boss' | 'tables' | 'handlers' | 'logger' | 'spaceRetrySeconds'>;

// A job given back by `stop` may still finish here; its row then belongs to whoever runs it next.
async function finishJob(boss: PgBoss, job: Running, work: () => Promise<void>, output?: object): Promise<void> {
  await work();
  if (!job.abandoned) await boss.complete(job.queue, job.id, output);
}

/** Runs one attempt of a job; a failure is recorded for pg-boss to retry, a full disk waits without using an attempt. */
async function runJob(deps: JobRunDeps, job: Running, data: JobPayload, attempt: number, lastAttempt: boolean): Promise<void> {
  const { boss, tables, handlers, logger } = deps;
  const log = logger.child({ jobId: job.id, kind: job.queue, attempt });
  const startedAt = Date.now();
  try {
    await finishJob(boss, job, () => handlers[job.queue]!.run(data.resourceId));
    log.info({ durationMs: Date.now() - startedAt }, 'job done');
  } catch (err) {
    if (job.abandoned) return;
    const errKind = err instanceof DomainError ? err.kind : 'internal';
    if (isOutOfSpace(err)) {
      // Not the job's fault: it waits for room without using up one of its attempts.
      log.warn('the disk is full: the job waits for space');
      await tables.release(job.queue, job.id, deps.spaceRetrySeconds);
      return;
    }
    // Messages of domain errors are written for callers and carry no patient data.
    const message = err instanceof DomainError ? err.message : 'job failed';
    await boss.fail(job.queue, job.id, { message, attempts: attempt });
    if (lastAttempt) log.error({ errKind }, 'job failed; giving up');
    else log.warn({ errKind }, 'job failed; will retry');
  }
}

/** Runs `giveUp` for a job that reached the dead-letter queue; a failure leaves it there to try again. */
async function runDeadLetter(deps: JobRunDeps, job: Running, data: JobPayload, output: unknown): Promise<void> {
  const handler = deps.handlers[data.kind];
  const log = deps.logger.child({ jobId: job.id, kind: data.kind });
  try {
    if (!handler) throw new Error('no handler for this job kind');
    // Completing a job replaces its output, so the dead letter keeps its message and attempts for the listing.
    await finishJob(deps.boss, job, async () => handler.giveUp(data.resourceId, messageOf(output)), (output ?? undefined) as object | undefined);
  } catch (err) {
    if (job.abandoned) return;
    log.error({ errKind: err instanceof DomainError ? err.kind : 'internal' }, 'giving up on a job failed; will try again');
    await deps.boss.fail(job.queue, job.id, (output ?? { message: 'job failed' }) as object);
  }
}

/** Renews the lease of every job this worker runs; says which ones another worker may have taken. */
async function renewLeases(deps: Pick<PgJobWorkerOptions, 'tables' | 'expiry' | 'logger'>, jobs: Iterable<Running>): Promise<void> {
  const byKind = new Map<string, string[]>();
  for (const job of jobs) {
    if (job.queue === DEAD_LETTER_QUEUE || job.abandoned) continue;
    byKind.set(job.queue, [...(byKind.get(job.queue) ?? []), job.id]);
  }
  for (const [kind, ids] of byKind) {
    try {
      const held = new Set(await deps.tables.heartbeat(kind, ids, deps.expiry(kind)));
      const lost = ids.filter((id) => !held.has(id));
      if (lost.length > 0) deps.logger.warn({ kind, jobIds: lost }, 'running jobs lost their lease; another worker may run them again');
    } catch (err) {
      deps.logger.warn({ code: (err as { code?: string }).code }, 'job heartbeat failed');
    }
  }
}

/** Only the queue's own `{message}` is shown; pg-boss's texts (a lapsed lease) are replaced by ours. */
export function messageOf(output: unknown): string {
  const o = output as { message?: unknown; value?: { message?: unknown } } | null;
  if (typeof o?.message === 'string') return o.message;
  if (typeof o?.value?.message === 'string' && o.value.message.includes('timeout')) return 'the worker running the job stopped responding';
  return 'job failed';
}
