import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import pino from 'pino';
import { createPgJobQueue, type PgJobQueue } from '../../main/jobs/pg-job-queue.js';
import { ROOT } from '../support/child.js';
import { createTestDatabase, pgUnavailable, type TestDatabase } from '../support/pg-cluster.js';
import { waitFor } from '../support/wait.js';

/** Starts test/jobs-pg/worker-child.ts and collects what it prints. */
function startWorker(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<NodeJS.Signals | number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'jobs-pg', 'worker-child.ts')], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return { child, output: () => out, exited };
}

describe.skipIf(pgUnavailable !== null)('PostgreSQL job queue across processes', () => {
  let db: TestDatabase;
  let sql: pg.Pool;
  let api: PgJobQueue;
  const schema = 'jobs_kill';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = new pg.Pool({ connectionString: db.url, max: 2 });
    // pool.end() resolves before its connections have closed on the server, so the forced drop in afterAll can
    // terminate one still closing; the pool then emits 'error', which with no listener would crash the test run.
    sql.on('error', () => undefined);
    await sql.query('CREATE TABLE job_runs (resource_id text NOT NULL, pid int NOT NULL, event text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())');
    // The test process is an API-only instance: it enqueues and watches, and never works a job.
    api = createPgJobQueue({
      connectionString: db.url, schema, concurrency: 0, logger: pino({ level: 'silent' }), maintenanceIntervalSeconds: 1,
      handlers: { test_job: { run: () => Promise.reject(new Error('the API instance must not work jobs')), giveUp() {} } },
    });
    await api.start();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await api?.stop(1000);
    await sql?.end();
    await db?.drop();
  });

  it('a worker killed with -9 mid-job loses nothing: another worker completes every job once', async () => {
    const first = startWorker({ PG_URL: db.url, PG_SCHEMA: schema, MODE: 'block', CONCURRENCY: '2' });
    children.push(first.child);
    await waitFor(() => (first.output().includes('ready') ? true : undefined));

    const ids = ['t1', 't2', 't3', 't4', 't5'];
    for (const id of ids) await api.enqueue('test_job', 'acct-1', id);
    await waitFor(() => ((first.output().match(/started /g)?.length ?? 0) === 2 ? true : undefined));
    const takenByFirst = [...first.output().matchAll(/started (\w+)/g)].map((m) => m[1]!);
    expect((await api.stats()).test_job).toMatchObject({ active: 2, queued: 3 });

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const second = startWorker({ PG_URL: db.url, PG_SCHEMA: schema, MODE: 'finish', CONCURRENCY: '2' });
    children.push(second.child);
    await api.idle();

    const { rows } = await sql.query<{ resource_id: string; pid: number; event: string }>('SELECT resource_id, pid, event FROM job_runs ORDER BY at');
    const done = rows.filter((r) => r.event === 'done');
    // Every job finished exactly once, all by the second worker.
    expect(done.map((r) => r.resource_id).sort()).toEqual(ids);
    expect(done.every((r) => r.pid === second.child.pid)).toBe(true);
    // The two jobs the killed worker held were started again by the second one after their lease lapsed.
    for (const id of takenByFirst) {
      expect(rows.filter((r) => r.resource_id === id && r.event === 'start').map((r) => r.pid)).toEqual([first.child.pid, second.child.pid]);
    }
    expect(await api.deadLetters()).toEqual([]);
    expect(second.output()).not.toContain('gave up');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
