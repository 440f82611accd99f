/**
 * A full disk and the job queue's claim (the really-full-disk defect: a core spun for minutes and
 * the server stopped answering). On a disk full to the last byte SQLite fails at commit, not at the
 * UPDATE; the claim once read its row with better-sqlite3's `get`, which drops the commit's error,
 * so it handed out a job the database still held as queued, at every call, and the runner, finding
 * that job's engine busy and unable to write it back, claimed it again without end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createJobStore } from '../../main/store/job-store.js';
import { createJobRunner } from '../../main/jobs/job-runner.js';
import { isOutOfSpace } from '../../main/services/errors.js';
import type { JobRecord, JobStore } from '../../main/services/storage.js';
import { canMount, fill, mountTinyDisk, type TinyDisk } from '../support/tiny-disk.js';

const logger = pino({ level: 'silent' });
const job = (id: string): JobRecord => ({ id, kind: 'note', accountId: 'a', resourceId: id, status: 'running', attempts: 1, runAfter: 0, lastError: null });
const full = (): Error => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

describe.skipIf(!canMount())('the SQLite job claim on a really full disk (a tmpfs; needs root or passwordless sudo to mount)', () => {
  let disk: TinyDisk | undefined;
  let db: Db;
  beforeAll(() => {
    disk = mountTinyDisk(4);
    db = openDatabase(join(disk!.dir, 'clindoc.db'));
  });
  afterAll(() => {
    db?.close();
    disk?.unmount();
  });

  it('fails with the full-disk error and leaves the job queued, instead of handing out a job it did not claim', async () => {
    const store = createJobStore(db);
    // Long rows, so claiming the first one needs whole new pages in the write-ahead log.
    for (let i = 0; i < 3; i++) await store.enqueue({ id: `j${i}`, kind: 'note', accountId: 'a', resourceId: `r${i}`.padEnd(3000, 'x'), runAfter: 0 });
    db.pragma('wal_checkpoint(TRUNCATE)');
    fill(disk!.dir);

    for (let i = 0; i < 3; i++) {
      const err = await store.claim(Date.now()).then(() => undefined, (e: unknown) => e);
      expect(isOutOfSpace(err)).toBe(true);
    }
    expect((await store.get('j0'))?.status).toBe('queued');
  });
});

describe('the job runner when the queue cannot be written', () => {
  it('ends its pass when a job set aside for its busy engine cannot be put back, so the event loop goes on', async () => {
    // A store as the full disk left it: every claim hands out the same job, every requeue fails.
    // Claims are counted, and a runaway loop is cut off at 1000 instead of hanging the test.
    let claims = 0;
    let first = true;
    const store: JobStore = {
      enqueue: async () => undefined,
      claim: async () => {
        if (++claims > 1000) throw new Error('claimed without end');
        if (first) {
          first = false;
          return job('holds-the-engine');
        }
        return job('waits-for-the-engine');
      },
      finish: async () => undefined,
      requeue: async () => {
        throw full();
      },
      recoverInterrupted: async () => 0,
      countOpen: async () => 1,
      get: async () => undefined,
    };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runner = createJobRunner({
      store, logger, concurrency: 1, pollMs: 60_000,
      handlers: { note: { run: (id) => (id === 'holds-the-engine' ? held : Promise.resolve()), giveUp: () => undefined } },
      laneOf: async () => 'speech:pocketsphinx',
    });
    await runner.start();
    // A timer fires only once the pass has let go of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One claim for the job that holds the engine, one for the job sent back: then the pass ends.
    expect(claims).toBe(2);
    release();
    await runner.stop(1000);
  });
});
