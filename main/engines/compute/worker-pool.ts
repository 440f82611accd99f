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

/** The pool's state, shared by the functions below: its workers and the tasks waiting for one. */
interface Pool {
  options: WorkerPoolOptions;
  slots: Set<Slot>;
  waiting: Job[];
  nextId: number;
  closed: boolean;
}

export function createWorkerPool(options: WorkerPoolOptions): ComputePool {
  const pool: Pool = { options, slots: new Set(), waiting: [], nextId: 1, closed: false };
  return {
    run: (task, args) => submit(pool, task, args),
    prepare(tasks) {
      if (!pool.closed && pool.slots.size === 0) spawn(pool, tasks);
    },
    recycle: () => recycle(pool),
    close: () => close(pool),
  };
}

/** Queues a task for the next free worker; refused (503) when shutting down or too many wait. */
function submit(pool: Pool, task: ComputeTask, args: unknown[]): Promise<unknown> {
  const { options, waiting } = pool;
  if (pool.closed) return Promise.reject(busyNow('the server is shutting down'));
  if (waiting.length >= options.maxWaiting) {
    return Promise.reject(busyNow(`every compute worker is busy and ${options.maxWaiting} tasks are waiting: try again shortly`));
  }
  return new Promise((resolve, reject) => {
    const job: Job = { id: pool.nextId++, task, args, resolve, reject, leftMs: options.budgetMs, pauses: 0 };
    job.waitTimer = setTimeout(() => {
      const at = waiting.indexOf(job);
      if (at >= 0) waiting.splice(at, 1);
      reject(busyNow(`no compute worker was free for ${Math.round(options.maxWaitMs / 1000)} s: try again shortly`));
    }, options.maxWaitMs);
    waiting.push(job);
    dispatch(pool);
  });
}

function spawn(pool: Pool, prepare: ComputeTask[] = []): void {
  const { options } = pool;
  const data = prepare.length > 0 ? { ...(options.workerData as object), prepare } : options.workerData;
  const worker = startWorker(options.entry, data, options.maxHeapMb);
  const slot: Slot = { worker, ready: false, retired: false };
  pool.slots.add(slot);
  worker.unref();
  worker.on('message', (message: FromWorker) => onMessage(pool, slot, message));
  worker.on('error', (err: Error & { code?: string }) => {
    options.onWorkerLost?.({ errName: err.name, ...(err.code ? { code: err.code } : {}) });
    drop(pool, slot, receivedError(sendableError(err)));
  });
  worker.on('exit', () => drop(pool, slot, new Error('compute worker exited')));
}

/** Removes a slot (its worker is gone or going): its task, if any, fails with `err`. */
function drop(pool: Pool, slot: Slot, err: Error): void {
  if (!pool.slots.delete(slot)) return;
  // A worker that dies before it is ready would die again: the waiting tasks fail instead of respawning it forever.
  if (!slot.ready && !pool.closed) {
    for (const waiter of pool.waiting.splice(0)) {
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
  dispatch(pool);
}

function startBudget(pool: Pool, slot: Slot, job: Job): void {
  job.runningSince = performance.now();
  job.budgetTimer = setTimeout(() => {
    void slot.worker.terminate();
    drop(pool, slot, workOverBudget(WHAT[job.task], pool.options.budgetMs));
  }, Math.max(0, job.leftMs));
}

function pauseBudget(job: Job): void {
  if (job.runningSince === undefined) return;
  clearTimeout(job.budgetTimer);
  job.leftMs -= performance.now() - job.runningSince;
  job.runningSince = undefined;
}

function onMessage(pool: Pool, slot: Slot, message: FromWorker): void {
  if (message.type === 'ready') {
    slot.ready = true;
    dispatch(pool);
    return;
  }
  const job = slot.job;
  if (!job) return;
  if (message.type === 'untimed') {
    if (message.on) {
      if (job.pauses++ === 0) pauseBudget(job);
    } else if (--job.pauses === 0) startBudget(pool, slot, job);
    return;
  }
  if (message.type === 'call') return answerHostCall(pool, slot, job, message);
  clearTimeout(job.budgetTimer);
  slot.job = undefined;
  if (message.ok) job.resolve(message.value);
  else job.reject(receivedError(message.error));
  if (slot.retired || pool.closed) {
    pool.slots.delete(slot);
    void slot.worker.terminate();
  }
  dispatch(pool);
}

/** Runs what a task asked of this thread; its budget stands still until the answer is sent. */
function answerHostCall(pool: Pool, slot: Slot, job: Job, message: Extract<FromWorker, { type: 'call' }>): void {
  if (job.pauses++ === 0) pauseBudget(job);
  const fn = pool.options.host[message.fn] as (...args: unknown[]) => Promise<unknown>;
  const reply = (answer: ToWorker): void => {
    if (pool.slots.has(slot)) slot.worker.postMessage(answer);
  };
  Promise.resolve()
    .then(() => fn(...message.args))
    .then(
      (value) => reply({ type: 'reply', id: message.id, ok: true, value }),
      (err: unknown) => reply({ type: 'reply', id: message.id, ok: false, error: sendableError(err) }),
    )
    .finally(() => {
      if (slot.job === job && --job.pauses === 0) startBudget(pool, slot, job);
    });
}

function dispatch(pool: Pool): void {
  const { slots, waiting } = pool;
  if (pool.closed) return;
  while (waiting.length > 0) {
    const free = [...slots].find((s) => s.ready && !s.job && !s.retired);
    if (!free) {
      const live = [...slots].filter((s) => !s.retired);
      const starting = live.filter((s) => !s.ready).length;
      // Workers still starting take the next tasks when they say `ready`.
      if (live.length < pool.options.size && starting < waiting.length) spawn(pool);
      return;
    }
    const job = waiting.shift()!;
    clearTimeout(job.waitTimer);
    free.job = job;
    startBudget(pool, free, job);
    free.worker.postMessage({ type: 'task', id: job.id, task: job.task, args: job.args } satisfies ToWorker);
  }
}

/** Retires every worker: idle ones end now, busy ones after their task; fresh ones start on demand. */
function recycle(pool: Pool): void {
  for (const slot of pool.slots) {
    slot.retired = true;
    if (!slot.job) {
      pool.slots.delete(slot);
      void slot.worker.terminate();
    }
  }
  dispatch(pool);
}

async function close(pool: Pool): Promise<void> {
  pool.closed = true;
  for (const job of pool.waiting.splice(0)) {
    clearTimeout(job.waitTimer);
    job.reject(busyNow('the server is shutting down'));
  }
  const all = [...pool.slots];
  pool.slots.clear();
  for (const slot of all) {
    if (slot.job) {
      clearTimeout(slot.job.budgetTimer);
      slot.job.reject(busyNow('the server is shutting down'));
    }
  }
  await Promise.all(all.map((s) => s.worker.terminate()));
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
