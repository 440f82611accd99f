import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { JobRecord, JobStore } from '../services/storage.js';
import { DomainError, isDatabaseBusy, isOutOfSpace } from '../services/errors.js';
import { createOnePass } from './one-pass.js';

/** How soon a job stopped by another process's database lock runs again (the lock is usually a command's moment). */
const BUSY_RETRY_MS = 2000;

export interface JobHandler {
  run(resourceId: string): Promise<void>;
  /** Called when the runner gives up on a job (attempts exhausted); the job is marked failed once it resolves. */
  giveUp(resourceId: string, message: string): void | Promise<void>;
}

export interface JobRunnerOptions {
  store: JobStore;
  handlers: Record<string, JobHandler>;
  logger: Logger;
  /** Jobs run at the same time (CLINDOC_JOB_CONCURRENCY, default 1). 0 disables running. */
  concurrency: number;
  /** Poll interval when idle; enqueue wakes the runner at once. */
  pollMs?: number;
  maxAttempts?: number;
  /** Backoff before a retry, by attempt number. */
  retryDelayMs?: (attempt: number) => number;
  /** Wait before trying a job again that stopped on a full disk (default 5000); such a wait uses up no attempt. */
  spaceRetryMs?: number;
  /**
   * The engine a job will use (`text:NAME`, `speech:NAME`). With it, `concurrency` holds per engine
   * instead of in all (up to {@link MAX_LANES} engines at once), so a hung server's jobs never hold
   * the slots other engines' jobs need: a job whose engine is busy goes back to the queue, its
   * attempt given back, and is taken again when a slot frees.
   */
  laneOf?: (job: JobRecord) => Promise<string>;
}

/** Engines whose jobs may run side by side when jobs have lanes. */
export const MAX_LANES = 4;
/** How soon a job set aside for its busy engine is looked at again. */
const LANE_RETRY_MS = 250;

export interface JobRunner {
  /** Resolves once the job is written to the queue; the runner is woken at once. */
  enqueue(kind: string, accountId: string, resourceId: string): Promise<void>;
  /**
   * Queues again the jobs a previous exit left running, then starts taking jobs. Rejects when the
   * queue cannot be read; a full disk only postpones the recovery to the first poll with room.
   */
  start(): Promise<void>;
  /** Stops taking jobs and waits for running ones (up to `graceMs`); unfinished ones stay queued. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no job is queued or running (tests, graceful quit). */
  idle(): Promise<void>;
}

/** Requeues a full disk would not let us write: kept here and written at the next pass with room. */
function createRequeues(store: JobStore, logger: Logger) {
  // A full disk can refuse even the queue's own bookkeeping. Jobs whose requeue could not be
  // written wait here (still `running` in the database, so a restart recovers them too) and are
  // put back in the queue as soon as a write succeeds again: no accepted job is ever dropped.
  const stranded = new Map<string, { runAfter: number; message: string | null; refund: boolean }>();
  let diskFull = false;
  return {
    /** Rethrows what is not a full disk; says once per spell that jobs wait for space. */
    noteSpace(err: unknown): void {
      if (!isOutOfSpace(err)) throw err;
      if (!diskFull) logger.warn('the disk is full: background jobs wait for space and resume when it returns');
      diskFull = true;
    },
    spaceReturned(): void {
      diskFull = false;
    },
    /** Resolves false when the requeue could not be written (the job waits to be written at the next pass). */
    async requeue(id: string, runAfter: number, message: string | null, refund = false): Promise<boolean> {
      try {
        await store.requeue(id, runAfter, message, refund);
        return true;
      } catch {
        stranded.set(id, { runAfter, message, refund });
        return false;
      }
    },
    strand(id: string, runAfter: number, message: string): void {
      stranded.set(id, { runAfter, message, refund: true });
    },
    /** Writes the requeues that waited; throws (and keeps the rest) when the disk is still full. */
    async flush(): Promise<void> {
      for (const [id, r] of stranded) {
        await store.requeue(id, r.runAfter, r.message, r.refund);
        stranded.delete(id);
      }
    },
  };
}

type Requeues = ReturnType<typeof createRequeues>;

interface Execution {
  store: JobStore;
  logger: Logger;
  handlers: Record<string, JobHandler>;
  maxAttempts: number;
  retryDelay: (attempt: number) => number;
  spaceRetryMs: number;
  requeues: Requeues;
}

/**
 * Runs one claimed job and records how it ended: done; failed and retried after its backoff;
 * waiting without using an attempt (a full disk, another process's database lock); or given up.
 */
async function executeJob(job: JobRecord, x: Execution): Promise<void> {
  const { store, requeues } = x;
  const handler = x.handlers[job.kind];
  const log = x.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  if (!handler) {
    await store.finish(job.id, 'failed', 'no handler for this job kind');
    return;
  }
  const startedAt = Date.now();
  try {
    await handler.run(job.resourceId);
    await store.finish(job.id, 'done', null);
    log.info({ durationMs: Date.now() - startedAt }, 'job done');
    requeues.spaceReturned();
  } catch (err) {
    // Messages of domain errors are written for callers and carry no patient data.
    const message = err instanceof DomainError ? err.message : 'job failed';
    if (isOutOfSpace(err)) {
      // Not the job's fault: it waits for room without using up one of its attempts.
      requeues.noteSpace(err);
      await requeues.requeue(job.id, Date.now() + x.spaceRetryMs, 'waiting for disk space', true);
      return;
    }
    if (isDatabaseBusy(err)) {
      // Another process holds the database: not the job's fault either; it runs again shortly, its attempt given back.
      await requeues.requeue(job.id, Date.now() + BUSY_RETRY_MS, 'waiting for the database', true);
      return;
    }
    const errKind = err instanceof DomainError ? err.kind : 'internal';
    if (job.attempts < x.maxAttempts) {
      await requeues.requeue(job.id, Date.now() + x.retryDelay(job.attempts), message);
      log.warn({ errKind }, 'job failed; will retry');
      return;
    }
    try {
      await handler.giveUp(job.resourceId, message);
      await store.finish(job.id, 'failed', message);
      log.error({ errKind }, 'job failed; giving up');
    } catch (bookkeeping) {
      requeues.noteSpace(bookkeeping);
      await requeues.requeue(job.id, Date.now() + x.spaceRetryMs, message, true);
    }
  }
}

/** Jobs running now, in all and per engine (when jobs have lanes). */
function createSlots(options: Pick<JobRunnerOptions, 'concurrency' | 'laneOf'>) {
  const lanes = new Map<string, number>();
  let running = 0;
  return {
    get running(): number {
      return running;
    },
    /** Whether another job may be claimed: per engine, up to {@link MAX_LANES} engines run side by side. */
    room: (): boolean => running < (options.laneOf ? options.concurrency * MAX_LANES : options.concurrency),
    laneOf: async (job: JobRecord): Promise<string | undefined> => (options.laneOf ? options.laneOf(job).catch(() => 'default') : undefined),
    full: (lane: string | undefined): boolean => lane !== undefined && (lanes.get(lane) ?? 0) >= options.concurrency,
    take(lane: string | undefined): void {
      if (lane !== undefined) lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
      running += 1;
    },
    free(lane: string | undefined): void {
      running -= 1;
      if (lane !== undefined) lanes.set(lane, (lanes.get(lane) ?? 1) - 1);
    },
  };
}

/**
 * The durable job runner: jobs are rows in the database, claimed atomically (one conditional
 * UPDATE in the store, so two runners, or two processes, never take the same job), retried with
 * backoff, and a job left `running` by a killed process is queued again at the next start.
 * Claims are made by one pass at a time (`createOnePass`), so the concurrency limit holds while
 * a claim is waiting on the database.
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { store, logger } = options;
  const pollMs = options.pollMs ?? 500;
  const spaceRetryMs = options.spaceRetryMs ?? 5000;
  const requeues = createRequeues(store, logger);
  const execution: Execution = {
    store, logger, handlers: options.handlers, maxAttempts: options.maxAttempts ?? 5, spaceRetryMs, requeues,
    retryDelay: options.retryDelayMs ?? ((attempt: number) => Math.min(60_000, 1000 * 2 ** (attempt - 1))),
  };
  const slots = createSlots(options);
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const active = new Set<Promise<void>>();
  let recoverPending = false;

  /** Claims jobs while there is room, and starts each. */
  const claimJobs = async (): Promise<void> => {
    while (started && slots.room()) {
      const job = await store.claim(Date.now());
      if (!job) break;
      const lane = await slots.laneOf(job);
      if (slots.full(lane)) {
        // Its engine is busy: back to the queue without using an attempt; other engines' jobs go on.
        // A requeue that could not be written ends the pass: claiming on would take no step forward
        // and, every call answering at once, would hold the event loop (a full disk spun a core).
        if (!(await requeues.requeue(job.id, Date.now() + LANE_RETRY_MS, null, true))) break;
        continue;
      }
      slots.take(lane);
      const p = executeJob(job, execution)
        .catch((err: unknown) => {
          // Only bookkeeping on a full disk gets here; anything else is a bug worth a log line.
          if (!isOutOfSpace(err)) logger.error({ errName: (err as Error)?.name }, 'job bookkeeping failed');
          requeues.strand(job.id, Date.now() + spaceRetryMs, 'waiting for disk space');
        })
        .finally(() => {
          slots.free(lane);
          active.delete(p);
          pump();
        });
      active.add(p);
    }
  };

  /** One pass: recovers, requeues and claims; never rejects (failures are logged, and the next poll tries again). */
  const pumpOnce = async (): Promise<void> => {
    try {
      if (recoverPending) {
        await store.recoverInterrupted();
        recoverPending = false;
      }
      await requeues.flush();
      await claimJobs();
    } catch (err) {
      // Claiming is a write too; on a full disk the next tick tries again.
      if (isOutOfSpace(err)) requeues.noteSpace(err);
      else logger.error({ errName: (err as Error)?.name }, 'job queue could not be read');
    }
  };

  const passes = createOnePass(pumpOnce, () => started);
  const pump = passes.request;

  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      pump();
      if (started) schedule();
    }, pollMs);
    timer.unref();
  };

  /**
   * Recovery is a pass of its own, before the first claim: a job claimed first would be put back in
   * the queue by it and run twice. A full disk postpones it to the first pass with room; any other
   * failure means the runner did not start.
   */
  const recover = (): Promise<void> => passes.exclusive(async () => {
    try {
      const recovered = await store.recoverInterrupted();
      if (recovered) logger.warn({ recovered }, 'jobs interrupted by a previous exit were queued again');
    } catch (err) {
      if (isOutOfSpace(err)) {
        recoverPending = true;
        return;
      }
      started = false;
      throw err;
    }
  });

  return {
    async enqueue(kind, accountId, resourceId) {
      await store.enqueue({ id: randomUUID(), kind, accountId, resourceId, runAfter: Date.now() });
      setImmediate(pump);
    },
    async start() {
      if (started || options.concurrency <= 0) return;
      started = true;
      await recover();
      pump();
      schedule();
    },
    async stop(graceMs = 10_000) {
      started = false;
      if (timer) clearTimeout(timer);
      // A claim in flight lands in `active` before the wait begins.
      const all = passes.settled().then(() => Promise.allSettled([...active]));
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    },
    async idle() {
      while (slots.running > 0 || (await store.countOpen()) > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
