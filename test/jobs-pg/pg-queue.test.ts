import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import pg from 'pg';
import { DomainError, insufficientStorage } from '../../main/services/errors.js';
import type { JobHandler } from '../../main/jobs/job-runner.js';
import { createPgJobQueue, type PgJobQueue, type PgJobQueueOptions } from '../../main/jobs/pg-job-queue.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from '../support/pg-cluster.js';
import { waitFor } from '../support/wait.js';

const KIND = 'note_generation';

describe.skipIf(pgUnavailable !== null)('PostgreSQL job queue (pg-boss)', () => {
  let db: TestDatabase;
  let schema: string;
  const open: PgJobQueue[] = [];
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.stop(1000)));
  });

  /** Every test gets its own pg-boss schema, so queues and dead letters never mix between tests. */
  const newSchema = (): string => (schema = `jobs_${randomBytes(4).toString('hex')}`);
  const queue = (handlers: Record<string, JobHandler>, extra: Partial<PgJobQueueOptions> = {}): PgJobQueue => {
    const q = createPgJobQueue({
      connectionString: db.url, schema, handlers, logger, concurrency: 1,
      pollingIntervalSeconds: 0.1, maintenanceIntervalSeconds: 1, ...extra,
    });
    open.push(q);
    return q;
  };
  const jobRows = async (): Promise<Array<{ name: string; state: string; retry_count: number }>> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(`SELECT name, state, retry_count FROM ${schema}.job ORDER BY created_on`)).rows;
    } finally {
      await c.end();
    }
  };

  it('retries a failing job with growing delays and runs it to completion', async () => {
    newSchema();
    const attempts: number[] = [];
    const gaveUp: string[] = [];
    const q = queue({
      [KIND]: {
        async run() {
          attempts.push(Date.now());
          if (attempts.length < 3) throw new DomainError('engine_unavailable', 'the note writer is unavailable');
        },
        giveUp: (id) => void gaveUp.push(id),
      },
    }, { retryDelaySeconds: 1 });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-1');
    await q.idle();

    expect(attempts).toHaveLength(3);
    // pg-boss waits delay × 2^n / 2 plus up to as much again at random: 1-2 s, then 2-4 s.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(1000);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(2000);
    expect(gaveUp).toEqual([]);
    expect(await q.deadLetters()).toEqual([]);
  });

  it('dead-letters a job after its last attempt, calls giveUp once, and keeps patient data out', async () => {
    newSchema();
    logLines.length = 0;
    const runs = new Map<string, number>();
    const gaveUp: Array<[string, string]> = [];
    const q = queue({
      [KIND]: {
        async run(id) {
          runs.set(id, (runs.get(id) ?? 0) + 1);
          if (id === 'note-engine') throw new DomainError('engine_unavailable', 'the note writer is unavailable');
          throw new Error('could not parse transcript of patient Jane Roe, DOB 1961-02-03');
        },
        giveUp: (id, message) => void gaveUp.push([id, message]),
      },
    }, { maxAttempts: 2, retryDelaySeconds: 0, retryBackoff: false });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-engine');
    await q.enqueue(KIND, 'acct-2', 'note-bug');
    await q.idle();

    expect(Object.fromEntries(runs)).toEqual({ 'note-engine': 2, 'note-bug': 2 });
    expect(gaveUp.sort()).toEqual([['note-bug', 'job failed'], ['note-engine', 'the note writer is unavailable']]);
    const letters = await q.deadLetters();
    expect(letters.map(({ kind, resourceId, accountId, attempts, message }) => ({ kind, resourceId, accountId, attempts, message })).sort((a, b) => a.resourceId.localeCompare(b.resourceId)))
      .toEqual([
        { kind: KIND, resourceId: 'note-bug', accountId: 'acct-2', attempts: 2, message: 'job failed' },
        { kind: KIND, resourceId: 'note-engine', accountId: 'acct-1', attempts: 2, message: 'the note writer is unavailable' },
      ]);
    expect(letters.every((l) => l.failedAt > Date.now() - 60_000 && l.failedAt <= Date.now())).toBe(true);
    expect((await q.deadLetters('acct-1')).map((l) => l.resourceId)).toEqual(['note-engine']);
    expect(await q.deadLetters('acct-nobody')).toEqual([]);
    expect(await q.stats()).toEqual({ [KIND]: { queued: 0, active: 0, oldestQueuedAgeSeconds: null } });
    const everything = logLines.join('') + JSON.stringify(await jobRows());
    expect(everything).not.toContain('Jane Roe');
    // The whole date: a bare year could sit inside a process id or a timestamp in the log lines.
    expect(everything).not.toContain('1961-02-03');
    expect(everything).not.toContain('DOB');
  });

  it('a job whose worker stops answering on its last attempt is dead-lettered and given up once', async () => {
    newSchema();
    const gaveUp: Array<[string, string]> = [];
    // A heartbeat that never comes after the first one stands for a worker that hangs or died.
    const q = queue({
      [KIND]: { run: () => new Promise<void>(() => undefined), giveUp: (id, message) => void gaveUp.push([id, message]) },
    }, { maxAttempts: 1, expireInSeconds: 1, heartbeatSeconds: 600, concurrency: 2 });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-hung');
    await waitFor(() => (gaveUp.length > 0 ? true : undefined));
    await waitFor(async () => ((await jobRows()).every((r) => r.state === 'completed' || r.state === 'failed') ? true : undefined));

    expect(gaveUp).toEqual([['note-hung', 'the worker running the job stopped responding']]);
    expect((await q.deadLetters()).map(({ resourceId, attempts, message }) => ({ resourceId, attempts, message })))
      .toEqual([{ resourceId: 'note-hung', attempts: 1, message: 'the worker running the job stopped responding' }]);
  });

  it('a job stopped by a full disk waits for room without using up its attempts', async () => {
    newSchema();
    let runs = 0;
    const gaveUp: string[] = [];
    const q = queue({
      [KIND]: {
        async run() {
          runs += 1;
          if (runs <= 3) throw insufficientStorage();
        },
        giveUp: (id) => void gaveUp.push(id),
      },
    }, { maxAttempts: 1, spaceRetrySeconds: 0 });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-1');
    await q.idle();
    expect(runs).toBe(4);
    expect(gaveUp).toEqual([]);
    expect((await jobRows()).map((r) => [r.state, r.retry_count])).toEqual([['completed', 0]]);
  });

  it('never runs one job on two workers at once, and runs every job once', async () => {
    newSchema();
    const active = new Set<string>();
    const runs = new Map<string, number>();
    let overlaps = 0;
    const handler = (): JobHandler => ({
      async run(id) {
        if (active.has(id)) overlaps += 1;
        active.add(id);
        runs.set(id, (runs.get(id) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
        active.delete(id);
      },
      giveUp() {},
    });
    const a = queue({ [KIND]: handler() }, { concurrency: 3 });
    const b = queue({ [KIND]: handler() }, { concurrency: 3 });
    const ids = Array.from({ length: 40 }, (_, i) => `note-${i}`);
    await Promise.all(ids.map((id) => a.enqueue(KIND, 'acct-1', id)));
    await a.start();
    await b.start();
    await a.idle();
    await b.idle();

    expect(overlaps).toBe(0);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });

  it('an API-only instance (concurrency 0) enqueues but never works a job', async () => {
    newSchema();
    const ranOnApi: string[] = [];
    const ranOnWorker: string[] = [];
    const api = queue({ [KIND]: { run: async (id) => void ranOnApi.push(id), giveUp() {} } }, { concurrency: 0 });
    await api.start();
    for (const id of ['n1', 'n2', 'n3']) await api.enqueue(KIND, 'acct-1', id);
    // Ten polling intervals of the API instance go by with the jobs waiting.
    const since = Date.now();
    await waitFor(async () => (Date.now() - since > 1000 ? true : undefined));
    expect((await api.stats())[KIND]).toMatchObject({ queued: 3, active: 0 });
    expect((await api.stats())[KIND]!.oldestQueuedAgeSeconds).toBeGreaterThanOrEqual(1);

    const worker = queue({ [KIND]: { run: async (id) => void ranOnWorker.push(id), giveUp() {} } });
    await worker.start();
    await api.idle();
    expect(ranOnApi).toEqual([]);
    expect(ranOnWorker.sort()).toEqual(['n1', 'n2', 'n3']);
  });

  it('a job enqueued on an API instance wakes an idle worker at once, long before its next poll', async () => {
    newSchema();
    const api = queue({ [KIND]: { run: async () => undefined, giveUp() {} } }, { concurrency: 0 });
    const ran: string[] = [];
    const worker = queue({ [KIND]: { run: async (id) => void ran.push(id), giveUp() {} } }, { pollingIntervalSeconds: 600 });
    await worker.start();
    await api.ready();
    // The worker's first look for jobs (at start) is over well before this.
    await waitFor(async () => ((await api.stats())[KIND] ? true : undefined));
    for (const id of ['n1', 'n2']) {
      await api.enqueue(KIND, 'acct-1', id);
      await waitFor(() => (ran.includes(id) ? true : undefined));
    }
    expect(ran).toEqual(['n1', 'n2']);
  });

  it('enqueue is idempotent per resource while its job waits or runs, and not after', async () => {
    newSchema();
    const api = queue({ [KIND]: { run: async () => undefined, giveUp() {} } }, { concurrency: 0 });
    await Promise.all(Array.from({ length: 5 }, () => api.enqueue(KIND, 'acct-1', 'note-1')));
    expect((await api.stats())[KIND]).toMatchObject({ queued: 1, active: 0 });

    let release!: () => void;
    const runs: string[] = [];
    const worker = queue({
      [KIND]: {
        run: (id) => {
          runs.push(id);
          return runs.length === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
        },
        giveUp() {},
      },
    });
    await worker.start();
    // pg-boss marks the job active when it fetches it, a moment before the handler runs: wait for both.
    await waitFor(async () => (runs.length === 1 && (await api.stats())[KIND]!.active === 1 ? true : undefined));
    await api.enqueue(KIND, 'acct-1', 'note-1'); // a retried request while the job runs
    expect((await api.stats())[KIND]).toMatchObject({ queued: 0, active: 1 });
    release();
    await api.idle();
    expect(runs).toEqual(['note-1']);

    await api.enqueue(KIND, 'acct-1', 'note-1'); // a new request once the first is done
    await api.idle();
    expect(runs).toEqual(['note-1', 'note-1']);
  });

  it('a job running longer than its expiry keeps its lease through heartbeats and runs once', async () => {
    newSchema();
    let runs = 0;
    const q = queue({
      [KIND]: {
        async run() {
          runs += 1;
          await new Promise((r) => setTimeout(r, 5000));
        },
        giveUp() {},
      },
    // Twice the expiry without heartbeats would run it again; a stall of the loaded test machine under 1.75 s does not.
    }, { expireInSeconds: 2, heartbeatSeconds: 0.25 });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-long');
    await q.idle();
    expect(runs).toBe(1);
    expect((await jobRows()).map((r) => [r.state, r.retry_count])).toEqual([['completed', 0]]);
  });

  it('stop lets a running job finish within the grace period', async () => {
    newSchema();
    const done: string[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const q = queue({
      [KIND]: {
        async run(id) {
          started();
          await new Promise((r) => setTimeout(r, 300));
          done.push(id);
        },
        giveUp() {},
      },
    });
    await q.start();
    await q.enqueue(KIND, 'acct-1', 'note-1');
    // Stop while the handler runs (not by catching its 300 ms in a poll of the stats).
    await running;
    expect(done).toEqual([]);
    await q.stop(5000);
    expect(done).toEqual(['note-1']);
    expect((await jobRows()).map((r) => r.state)).toEqual(['completed']);
  });

  it('a job still running when the grace period ends goes back to the queue without losing an attempt', async () => {
    newSchema();
    const first = queue({ [KIND]: { run: () => new Promise<void>(() => undefined), giveUp() {} } }, { maxAttempts: 2, retryBackoff: false, retryDelaySeconds: 0 });
    await first.start();
    await first.enqueue(KIND, 'acct-1', 'note-1');
    await waitFor(async () => ((await first.stats())[KIND]!.active === 1 ? true : undefined));
    await first.stop(100);

    // With the attempt given back, the second worker still has two: one failure, then success.
    let runs = 0;
    const gaveUp: string[] = [];
    const second = queue({
      [KIND]: {
        async run() {
          runs += 1;
          if (runs === 1) throw new DomainError('engine_unavailable', 'the note writer is unavailable');
        },
        giveUp: (id) => void gaveUp.push(id),
      },
    });
    await second.start();
    await second.idle();
    expect(runs).toBe(2);
    expect(gaveUp).toEqual([]);
    expect(await second.deadLetters()).toEqual([]);
  });
  it("with lanes, finishes other engines' jobs while one engine's server hangs, and the hung engine's next job waits without spending an attempt", async () => {
    newSchema();
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const slowStarted = new Promise<void>((resolve) => (reached = resolve));
    const done: string[] = [];
    // The account decides the engine, as composition's laneOf reads it from the engine settings.
    const engineOf: Record<string, string> = { 'slow-clinic': 'text:clinic-server', 'other-clinic': 'text:embedded' };
    const q = queue({
      [KIND]: {
        async run(id) {
          if (id.startsWith('slow')) {
            reached();
            await hung;
          }
          done.push(id);
        },
        giveUp: () => undefined,
      },
    }, { laneOf: async (job) => engineOf[job.accountId]! });
    await q.start();
    try {
      await q.enqueue(KIND, 'slow-clinic', 'slow-1');
      await slowStarted;
      await q.enqueue(KIND, 'slow-clinic', 'slow-2');
      for (const id of ['fast-1', 'fast-2', 'fast-3']) await q.enqueue(KIND, 'other-clinic', id);
      await waitFor(() => (done.length === 3 ? true : undefined), undefined, 50);
      expect([...done].sort()).toEqual(['fast-1', 'fast-2', 'fast-3']);
      // slow-2 waits for its engine's one slot: queued again, no attempt counted.
      const slow2 = (await jobRows()).filter((r) => r.name === KIND && r.state !== 'completed' && r.state !== 'active');
      expect(slow2.map((r) => r.retry_count)).toEqual([0]);
    } finally {
      release();
    }
    await waitFor(() => (done.length === 5 ? true : undefined), undefined, 50);
    expect(done.slice(3).sort()).toEqual(['slow-1', 'slow-2']);
  });
});
