/**
 * A compute worker for the pool's own tests: tasks that spin, wait on the request thread, fail
 * with a domain error or kill their worker, so the pool's budget and recovery are seen directly.
 */
import { hostCall, serveComputeTasks, type TaskHandlers } from '../../main/engines/compute/worker-side.js';
import { DomainError } from '../../main/services/errors.js';

/** Computes for `ms` milliseconds without yielding (what a backtracking pattern does). */
const spin = (ms: number): number => {
  const until = performance.now() + ms;
  let n = 0;
  while (performance.now() < until) n++;
  return n;
};

serveComputeTasks({
  extract: (ms: number) => (spin(ms), 'spun'),
  detectMacros: async (tag: string) => `host said ${String(await hostCall('notes.get', [tag]))}`,
  analyzeText: () => {
    throw new DomainError('conflict', 'a domain error crosses the thread');
  },
  analyzeNote: () => {
    // An uncaught failure outside the task's promise ends the worker.
    setImmediate(() => {
      throw new Error('worker dies');
    });
    return new Promise(() => undefined);
  },
  writeNote: () => 'written',
  createTemplate: () => 'template',
} as unknown as TaskHandlers);
