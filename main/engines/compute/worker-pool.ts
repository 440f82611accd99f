/**
 * The compute pool on worker threads (node:worker_threads): a few workers, each running one task
 * at a time under a time budget. A worker whose task overruns is terminated, whatever it was doing
 * (a regular expression deep in backtracking included), and a fresh one takes its place, so no
 * request can hold the thread that answers `/healthz` and live dictation, nor a worker for good.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { busyNow, workOverBudget } from '../../services/errors.js';
import type { ComputePool, ComputeTask, HostCall } from '../../services/compute/ports.js';
import { receivedError, sendableError, type FromWorker, type ToWorker } from './messages.js';

export interface WorkerPoolOptions {
  /** The worker's module: its `.ts` source (run through tsx, as under `npm run serve` and the tests) or compiled `.js`. */
  entry: URL;
  /** Workers at most (started on first use). */
  size: number;
  /** Longest a task may compute, in milliseconds. */
  budgetMs: number;
  /** Longest a task may wait for a worker (all busy, or one starting), in milliseconds; then a 503 with Retry-After. */
  maxWaitMs: number;
  /** Tasks that may wait for a worker; beyond, a 503 with Retry-After. */
  maxWaiting: number;
  /** Handed to each worker (plain data: paths, names). */
  workerData: unknown;
  /** What tasks may ask of this thread. */
  host: Record<HostCall, (...args: never[]) => Promise<unknown>>;
  /** Heap limit of one worker, in MB: a task that allocates without end kills its worker, not the process. */
  maxHeapMb?: number;
  /** Told when a worker dies other than by the pool's hand (never with patient text). */
  onWorkerLost?: (info: { errName: string; code?: string }) => void;
}

/** Words for a task in an over-budget message. */
const WHAT: Record<ComputeTask, string> = {
  extract: 'text-to-JSON extraction', detectMacros: 'macro detection', analyzeText: 'coding analysis', analyzeNote: 'coding analysis',
  writeNote: 'note writing', createTemplate: 'style writing',
};

interface Job {
  id: number;
  task: ComputeTask;
  args: unknown[];
  resolve(value: unknown): void;
  reject(err: Error): void;
  waitTimer?: NodeJS.Timeout;
  /** Budget left, counted while the worker computes (not while it waits on a host call or does input-free setup). */
  leftMs: number;
  runningSince?: number;
  budgetTimer?: NodeJS.Timeout;
  /** Host calls and untimed setups under way: the budget runs only while there are none. */
  pauses: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  /** Replaced once its current task ends. */
  retired: boolean;
}

export function createWorkerPool(options: WorkerPoolOptions): ComputePool {
  const slots = new Set<Slot>();
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (prepare: ComputeTask[] = []): void => {
    const data = prepare.length > 0 ? { ...(options.workerData as object), prepare } : options.workerData;
    const worker = startWorker(options.entry, data, options.maxHeapMb);
    const slot: Slot = { worker, ready: false, retired: false };
    slots.add(slot);
    worker.unref();
    worker.on('message', (message: FromWorker) => onMessage(slot, message));
    worker.on('error', (err: Error & { code?: string }) => {
      options.onWorkerLost?.({ errName: err.name, ...(err.code ? { code: err.code } : {}) });
      drop(slot, receivedError(sendableError(err)));
    });
    worker.on('exit', () => drop(slot, new Error('compute worker exited')));
  };

  /** Removes a slot (its worker is gone or going): its task, if any, fails with `err`. */
  const drop = (slot: Slot, err: Error): void => {
    if (!slots.delete(slot)) return;
    // A worker that dies before it is ready would die again: the waiting tasks fail instead of respawning it forever.
    if (!slot.ready && !closed) {
      for (const waiter of waiting.splice(0)) {
        clearTimeout(waiter.waitTimer);
        waiter.reject(err);
      }
    }
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.budgetTimer);
      job.reject(err);
    }
    dispatch();
  };

  const startBudget = (slot: Slot, job: Job): void => {
    job.runningSince = performance.now();
    job.budgetTimer = setTimeout(() => {
      void slot.worker.terminate();
      drop(slot, workOverBudget(WHAT[job.task], options.budgetMs));
    }, Math.max(0, job.leftMs));
  };

  const pauseBudget = (job: Job): void => {
    if (job.runningSince === undefined) return;
    clearTimeout(job.budgetTimer);
    job.leftMs -= performance.now() - job.runningSince;
    job.runningSince = undefined;
  };

  const onMessage = (slot: Slot, message: FromWorker): void => {
    if (message.type === 'ready') {
      slot.ready = true;
      dispatch();
      return;
    }
    const job = slot.job;
    if (!job) return;
    if (message.type === 'untimed') {
      if (message.on) {
        if (job.pauses++ === 0) pauseBudget(job);
      } else if (--job.pauses === 0) startBudget(slot, job);
      return;
    }
    if (message.type === 'call') {
      if (job.pauses++ === 0) pauseBudget(job);
      const fn = options.host[message.fn] as (...args: unknown[]) => Promise<unknown>;
      Promise.resolve()
        .then(() => fn(...message.args))
        .then(
          (value) => reply(slot, { type: 'reply', id: message.id, ok: true, value }),
          (err: unknown) => reply(slot, { type: 'reply', id: message.id, ok: false, error: sendableError(err) }),
        )
        .finally(() => {
          if (slot.job === job && --job.pauses === 0) startBudget(slot, job);
        });
      return;
    }
    clearTimeout(job.budgetTimer);
    slot.job = undefined;
    if (message.ok) job.resolve(message.value);
    else job.reject(receivedError(message.error));
    if (slot.retired || closed) {
      slots.delete(slot);
      void slot.worker.terminate();
    }
    dispatch();
  };

  const reply = (slot: Slot, message: ToWorker): void => {
    if (slots.has(slot)) slot.worker.postMessage(message);
  };

  const dispatch = (): void => {
    if (closed) return;
    while (waiting.length > 0) {
      const free = [...slots].find((s) => s.ready && !s.job && !s.retired);
      if (!free) {
        const live = [...slots].filter((s) => !s.retired);
        const starting = live.filter((s) => !s.ready).length;
        // Workers still starting take the next tasks when they say `ready`.
        if (live.length < options.size && starting < waiting.length) spawn();
        return;
      }
      const job = waiting.shift()!;
      clearTimeout(job.waitTimer);
      free.job = job;
      startBudget(free, job);
      free.worker.postMessage({ type: 'task', id: job.id, task: job.task, args: job.args } satisfies ToWorker);
    }
  };

  return {
    run(task, args) {
      if (closed) return Promise.reject(busyNow('the server is shutting down'));
      if (waiting.length >= options.maxWaiting) {
        return Promise.reject(busyNow(`every compute worker is busy and ${options.maxWaiting} tasks are waiting: try again shortly`));
      }
      return new Promise((resolve, reject) => {
        const job: Job = { id: nextId++, task, args, resolve, reject, leftMs: options.budgetMs, pauses: 0 };
        job.waitTimer = setTimeout(() => {
          const at = waiting.indexOf(job);
          if (at >= 0) waiting.splice(at, 1);
          reject(busyNow(`no compute worker was free for ${Math.round(options.maxWaitMs / 1000)} s: try again shortly`));
        }, options.maxWaitMs);
        waiting.push(job);
        dispatch();
      });
    },
    prepare(tasks) {
      if (!closed && slots.size === 0) spawn(tasks);
    },
    recycle() {
      for (const slot of slots) {
        slot.retired = true;
        if (!slot.job) {
          slots.delete(slot);
          void slot.worker.terminate();
        }
      }
      dispatch();
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0)) {
        clearTimeout(job.waitTimer);
        job.reject(busyNow('the server is shutting down'));
      }
      const all = [...slots];
      slots.clear();
      for (const slot of all) {
        if (slot.job) {
          clearTimeout(slot.job.budgetTimer);
          slot.job.reject(busyNow('the server is shutting down'));
        }
      }
      await Promise.all(all.map((s) => s.worker.terminate()));
    },
  };
}

/**
 * Starts one worker. A `.ts` entry is the source tree run through tsx (`npm run serve`, the
 * tests): the worker registers tsx's loader before importing it, as the main thread did.
 */
function startWorker(entry: URL, workerData: unknown, maxHeapMb: number | undefined): Worker {
  const resourceLimits = maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } } : {};
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, ...resourceLimits });
  const code = `import(${JSON.stringify(tsxApi())}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData, ...resourceLimits });
}

let tsxLoader: string | undefined;
/** tsx's ESM registration module (its `import` export: the `require` one cannot be imported from ESM). */
function tsxApi(): string {
  if (tsxLoader) return tsxLoader;
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  tsxLoader = pathToFileURL(join(dirname(manifest), pkg.exports['./esm/api']!.import.default)).href;
  return tsxLoader;
}
