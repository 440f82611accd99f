import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createJobStore } from '../../main/store/job-store.js';
import { createJobRunner, type JobRunner } from '../../main/jobs/job-runner.js';

/**
 * Jobs of a slow engine do not block other engines' jobs: with lanes, each engine has its own
 * slot. One account's notes go to a loopback server that never answers; another account's notes
 * (the embedded writer) are done meanwhile, with one job slot (CLINDOC_JOB_CONCURRENCY=1).
 */
let dir: string;
let db: Db;
let hung: Server;
let runner: JobRunner | undefined;
afterEach(async () => {
  await runner?.stop(100);
  hung?.closeAllConnections();
  await new Promise<void>((resolve) => (hung ? hung.close(() => resolve()) : resolve()));
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setUp(withLanes: boolean) {
  dir = mkdtempSync(join(tmpdir(), 'clindoc-lanes-'));
  db = openDatabase(join(dir, 'clindoc.db'));
  let reached!: () => void;
  const serverReached = new Promise<void>((resolve) => (reached = resolve));
  hung = createServer(() => reached()); // takes the request, never answers
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/v1/chat/completions`;
  const done: string[] = [];
  // The account's choice decides the engine, as composition's laneOf reads it from the settings.
  const engineOf: Record<string, string> = { 'slow-clinic': 'text:clinic-server', 'other-clinic': 'text:embedded' };
  runner = createJobRunner({
    store: createJobStore(db), logger: pino({ level: 'silent' }), concurrency: 1, pollMs: 20, maxAttempts: 1,
    handlers: {
      note_generation: {
        run: async (id) => {
          if (id.startsWith('slow')) await fetch(url, { method: 'POST', body: '{}' }).then((r) => r.text()).catch(() => undefined);
          done.push(id);
        },
        giveUp: () => undefined,
      },
    },
    ...(withLanes ? { laneOf: async (job) => engineOf[job.accountId]! } : {}),
  });
  await runner.start();
  return { runner, done, serverReached };
}

describe('job slots per engine', () => {
  it("finishes other engines' jobs while one engine's server hangs", async () => {
    const { runner: r, done, serverReached } = await setUp(true);
    await r.enqueue('note_generation', 'slow-clinic', 'slow-1');
    await serverReached;
    for (const id of ['fast-1', 'fast-2', 'fast-3']) await r.enqueue('note_generation', 'other-clinic', id);
    await r.enqueue('note_generation', 'slow-clinic', 'slow-2');
    await expect.poll(() => [...done].sort(), { timeout: 20_000 }).toEqual(['fast-1', 'fast-2', 'fast-3']);
    // The hung engine's second job waits for its own slot, and is not failed for waiting.
    const waiting = db.prepare("SELECT status, attempts FROM jobs WHERE resource_id = 'slow-2'").get() as { status: string; attempts: number };
    expect(waiting).toEqual({ status: 'queued', attempts: 0 });
  });

  it('without lanes, the one slot is held by the hung server: the other job runs only once it lets go (the stall this prevents)', async () => {
    const { runner: r, done, serverReached } = await setUp(false);
    await r.enqueue('note_generation', 'slow-clinic', 'slow-1');
    await serverReached;
    await r.enqueue('note_generation', 'other-clinic', 'fast-1');
    hung.closeAllConnections(); // the hung server finally drops the request
    await expect.poll(() => done, { timeout: 20_000 }).toEqual(['slow-1', 'fast-1']);
  });
});
