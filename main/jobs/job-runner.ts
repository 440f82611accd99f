import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { JobRecord, JobStore } from '../services/storage.js';
import { DomainError } from '../services/errors.js';

export interface JobHandler {
  run(resourceId: string): Promise<void>;
  /** Called when the runner gives up on a job (attempts exhausted). */
  giveUp(resourceId: string, message: string): void;
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
}

export interface JobRunner {
  enqueue(kind: string, accountId: string, resourceId: string): void;
  start(): void;
  /** Stops taking jobs and waits for running ones (up to `graceMs`); unfinished ones stay queued. */
  stop(graceMs?: number): Promise<void>;
  /** Resolves when no job is queued or running (tests, graceful quit). */
  idle(): Promise<void>;
}

/**
 * The durable job runner: jobs are rows in SQLite, claimed atomically, retried with backoff,
 * and a job left `running` by a killed process is queued again at the next start.
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { store, logger } = options;
  const pollMs = options.pollMs ?? 500;
  const maxAttempts = options.maxAttempts ?? 5;
  const retryDelay = options.retryDelayMs ?? ((attempt: number) => Math.min(60_000, 1000 * 2 ** (attempt - 1)));
  let running = 0;
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const active = new Set<Promise<void>>();

  const execute = async (job: JobRecord): Promise<void> => {
    const handler = options.handlers[job.kind];
    const log = logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    if (!handler) {
      store.finish(job.id, 'failed', 'no handler for this job kind');
      return;
    }
    const startedAt = Date.now();
    try {
      await handler.run(job.resourceId);
      store.finish(job.id, 'done', null);
      log.info({ durationMs: Date.now() - startedAt }, 'job done');
    } catch (err) {
      // Messages of domain errors are written for callers and carry no patient data.
      const message = err instanceof DomainError ? err.message : 'job failed';
      if (job.attempts < maxAttempts) {
        store.requeue(job.id, Date.now() + retryDelay(job.attempts), message);
        log.warn({ errKind: err instanceof DomainError ? err.kind : 'internal' }, 'job failed; will retry');
      } else {
        store.finish(job.id, 'failed', message);
        handler.giveUp(job.resourceId, message);
        log.error({ errKind: err instanceof DomainError ? err.kind : 'internal' }, 'job failed; giving up');
      }
    }
  };

  const pump = (): void => {
    if (!started) return;
    while (running < options.concurrency) {
      const job = store.claim(Date.now());
      if (!job) break;
      running += 1;
      const p = execute(job).finally(() => {
        running -= 1;
        active.delete(p);
        pump();
      });
      active.add(p);
    }
  };

  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      pump();
      if (started) schedule();
    }, pollMs);
    timer.unref();
  };

  return {
    enqueue(kind, accountId, resourceId) {
      store.enqueue({ id: randomUUID(), kind, accountId, resourceId, runAfter: Date.now() });
      setImmediate(pump);
    },
    start() {
      if (started || options.concurrency <= 0) return;
      started = true;
      const recovered = store.recoverInterrupted();
      if (recovered) logger.warn({ recovered }, 'jobs interrupted by a previous exit were queued again');
      pump();
      schedule();
    },
    async stop(graceMs = 10_000) {
      started = false;
      if (timer) clearTimeout(timer);
      const all = Promise.allSettled([...active]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    },
    idle() {
      return new Promise<void>((resolve) => {
        const check = (): void => {
          if (running === 0 && store.countOpen() === 0) return resolve();
          setTimeout(check, 20);
        };
        check();
      });
    },
  };
}
