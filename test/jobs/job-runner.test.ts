import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createJobStore } from '../../main/store/job-store.js';
import { createJobRunner, type JobRunner } from '../../main/jobs/job-runner.js';
import type { JobStore } from '../../main/services/storage.js';

const logger = pino({ level: 'silent' });
const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The real SQLite job store, answering each call only after `ms` (as a networked database
 * would), or after `slower[method]` for the methods named there: the runner's bookkeeping then
 * really interleaves with other work.
 */
function slowed(store: JobStore, ms: number, slower: Partial<Record<keyof JobStore, number>> = {}): JobStore {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(store) as Array<[keyof JobStore, (...args: unknown[]) => Promise<unknown>]>) {
    wrapped[name] = async (...args: unknown[]) => {
      await later(slower[name] ?? ms);
      return fn(...args);
    };
  }
  return wrapped as unknown as JobStore;
}

/** A handler that records each run and takes `holdMs` over it. */
function recorder(holdMs = 15) {
  const runs: string[] = [];
  let running = 0;
  let most = 0;
  return {
    runs,
    most: () => most,
    handler: {
      async run(resourceId: string) {
        runs.push(resourceId);
        running += 1;
        most = Math.max(most, running);
        await later(holdMs);
        running -= 1;
      },
      giveUp: () => undefined,
    },
  };
}

describe('job runner on a store that answers later', () => {
  let dir: string;
  let db: Db;
  const runners: JobRunner[] = [];
  const open = (): Db => {
    dir = mkdtempSync(join(tmpdir(), 'clindoc-jobs-'));
    db = openDatabase(join(dir, 'clindoc.db'));
    return db;
  };
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('never runs more jobs at once than its concurrency while claims are in flight, and runs each once', async () => {
    const rec = recorder();
    const runner = createJobRunner({ store: slowed(createJobStore(open()), 3), handlers: { t: rec.handler }, logger, concurrency: 2, pollMs: 5 });
    runners.push(runner);
    await runner.start();
    const ids = Array.from({ length: 8 }, (_, i) => `r${i}`);
    await Promise.all(ids.map((id) => runner.enqueue('t', 'acct', id)));
    await runner.idle();
    expect([...rec.runs].sort()).toEqual(ids);
    expect(rec.most()).toBe(2);
  });

  it('puts back jobs a killed process left running before it claims anything, so none runs twice', async () => {
    const store = createJobStore(open());
    // A previous process claimed this job and died.
    await store.enqueue({ id: 'old', kind: 't', accountId: 'acct', resourceId: 'interrupted', runAfter: 0 });
    expect((await store.claim(Date.now()))?.status).toBe('running');

    // A job taken now would still be running when recovery lands.
    const rec = recorder(120);
    const runner = createJobRunner({ store: slowed(store, 2, { recoverInterrupted: 60 }), handlers: { t: rec.handler }, logger, concurrency: 4, pollMs: 5 });
    runners.push(runner);
    // A request arrives, and could be claimed, while recovery is still waiting on the database.
    const starting = runner.start();
    await runner.enqueue('t', 'acct', 'fresh');
    await starting;
    await runner.idle();
    expect([...rec.runs].sort()).toEqual(['fresh', 'interrupted']);
    expect((await store.get('old'))?.status).toBe('done');
  });

  it('shares one table between two runners without a job being taken twice', async () => {
    const store = createJobStore(open());
    const a = recorder();
    const b = recorder();
    const first = createJobRunner({ store: slowed(store, 2), handlers: { t: a.handler }, logger, concurrency: 3, pollMs: 5 });
    const second = createJobRunner({ store: slowed(createJobStore(db), 2), handlers: { t: b.handler }, logger, concurrency: 3, pollMs: 5 });
    runners.push(first, second);
    await Promise.all([first.start(), second.start()]);
    const ids = Array.from({ length: 20 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    await Promise.all(ids.map((id, i) => (i % 2 ? first : second).enqueue('t', 'acct', id)));
    await Promise.all([first.idle(), second.idle()]);
    expect([...a.runs, ...b.runs].sort()).toEqual(ids);
  });

  it('stop waits for a claim in flight and the job it took, so nothing runs after the database closes', async () => {
    const store = createJobStore(open());
    const rec = recorder();
    const runner = createJobRunner({ store: slowed(store, 20), handlers: { t: rec.handler }, logger, concurrency: 1, pollMs: 1000 });
    await runner.start();
    await runner.enqueue('t', 'acct', 'one');
    await new Promise((resolve) => setImmediate(resolve)); // the wake-up has asked for a claim; it is not answered yet
    await runner.stop();
    expect(rec.runs).toEqual(['one']);
    expect(await store.countOpen()).toBe(0);
  });
});
