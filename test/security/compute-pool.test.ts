import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerPool } from '../../main/engines/compute/worker-pool.js';
import { DomainError } from '../../main/services/errors.js';
import type { ComputePool } from '../../main/services/compute/ports.js';

/**
 * The compute pool on real worker threads with a test worker (support/compute-test-worker.ts):
 * a task past its budget is stopped and its worker replaced; time a task spends waiting on the
 * request thread is not counted; errors cross as the contract's domain errors; a dying worker
 * fails its task and the pool goes on.
 */
const ENTRY = new URL('../support/compute-test-worker.ts', import.meta.url);
let pool: ComputePool | undefined;
afterEach(() => pool?.close());

const make = (budgetMs: number, host: (tag: string) => Promise<unknown> = async (tag) => tag): ComputePool =>
  (pool = createWorkerPool({ entry: ENTRY, size: 1, budgetMs, maxWaitMs: 120_000, maxWaiting: 4, workerData: {}, host: { 'notes.get': host, 'languageModel.complete': async () => undefined } }));

describe('the compute pool', () => {
  it('stops a task that computes past its budget with a 422, and answers the next on a fresh worker', { timeout: 120_000 }, async () => {
    const p = make(1_000);
    expect(await p.run('writeNote', [])).toBe('written'); // the worker is up
    const err = (await p.run('extract', [60_000]).catch((e: unknown) => e)) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/text-to-JSON extraction took longer than its budget of 1 s/);
    expect(await p.run('extract', [1])).toBe('spun');
  });

  it('does not count time spent waiting on the request thread', { timeout: 120_000 }, async () => {
    // A language model answering after three budgets (what the host call stands for) is no overrun.
    const p = make(2_000, (tag) => new Promise((resolve) => setTimeout(() => resolve(tag), 6_000)));
    expect(await p.run('detectMacros', ['late'])).toBe('host said late');
  });

  it('carries a domain error across the thread with its kind and message', { timeout: 60_000 }, async () => {
    const err = (await make(10_000).run('analyzeText', []).catch((e: unknown) => e)) as DomainError;
    expect(err).toBeInstanceOf(DomainError);
    expect([err.kind, err.status, err.message]).toEqual(['conflict', 409, 'a domain error crosses the thread']);
  });

  it('fails the task of a worker that dies and serves the next on a new one', { timeout: 60_000 }, async () => {
    const p = make(10_000);
    await expect(p.run('analyzeNote', [])).rejects.toThrow();
    expect(await p.run('writeNote', [])).toBe('written');
  });
});
