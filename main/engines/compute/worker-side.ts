/**
 * The worker's half of the compute pool: takes tasks from the request thread, answers them, and
 * lets a task ask the request thread for what only it holds (a language model, stored notes).
 */
import { parentPort } from 'node:worker_threads';
import type { ComputeTask, HostCall } from '../../services/compute/ports.js';
import { receivedError, sendableError, type FromWorker, type ToWorker } from './messages.js';

export type TaskHandlers = Record<ComputeTask, (...args: never[]) => unknown>;

const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
let nextCall = 1;

const post = (message: FromWorker): void => parentPort!.postMessage(message);

/** Asks the request thread to run `fn`; the task's budget does not run meanwhile. */
export function hostCall(fn: HostCall, args: unknown[]): Promise<unknown> {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ type: 'call', id, fn, args });
  });
}

/**
 * Runs `setup` with the task's budget stopped: for work that depends on no input (loading a
 * service's modules and tables, reading the code table), so a fresh worker's first task is not cut
 * short by it. Never for anything a request's input decides.
 */
export async function untimed<T>(setup: () => T | Promise<T>): Promise<T> {
  post({ type: 'untimed', on: true });
  // The request thread stops the clock when it reads the message; give it the moment to do so.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    return await setup();
  } finally {
    post({ type: 'untimed', on: false });
  }
}

/** Serves tasks until the pool terminates this worker; says `ready` once the handlers are built. */
export function serveComputeTasks(handlers: TaskHandlers): void {
  if (!parentPort) throw new Error('serveComputeTasks runs in a worker thread');
  parentPort.on('message', (message: ToWorker) => {
    if (message.type === 'reply') {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(receivedError(message.error));
      return;
    }
    const handler = handlers[message.task] as (...args: unknown[]) => unknown;
    Promise.resolve()
      .then(() => handler(...message.args))
      .then(
        (value) => post({ type: 'done', id: message.id, ok: true, value }),
        (err: unknown) => post({ type: 'done', id: message.id, ok: false, error: sendableError(err) }),
      );
  });
  post({ type: 'ready' });
}
