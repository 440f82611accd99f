/**
 * A clinic's instances start together on a new database (one service manager, several units), and
 * each installs pg-boss and creates its queues on its way up. pg-boss creates a queue's table and
 * attaches it with no lock of its own, so without one around it the starts deadlocked and all but
 * one failed. (The other failure the lock prevents, a duplicate 'pgboss' schema after waiting on
 * pg-boss's install lock, needs separate processes and luck: clinic.test.ts's start meets it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createPgJobQueue, type PgJobQueue } from '../../main/jobs/pg-job-queue.js';
import { clinicUnavailable } from './clinic-env.js';

const handler = { run: async () => undefined, giveUp: async () => undefined };

describe.skipIf(clinicUnavailable !== null)('job queues starting together on a new database', () => {
  let cluster: Awaited<ReturnType<typeof import('../support/pg-cluster.js')['openCluster']>>;
  beforeAll(async () => {
    const { openCluster } = await import('../support/pg-cluster.js');
    cluster = await openCluster();
  });
  afterAll(() => cluster?.stop());

  it('all start, three rounds in a row', async () => {
    for (let round = 0; round < 3; round++) {
      const url = await cluster.createDatabase();
      const queues: PgJobQueue[] = Array.from({ length: 4 }, () => createPgJobQueue({
        connectionString: url, logger: pino({ level: 'silent' }), concurrency: 0,
        handlers: { note_generation: handler, audio_transcription: handler },
      }));
      try {
        const started = await Promise.allSettled(queues.map((q) => q.ready()));
        expect(started.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'started'))).toEqual(queues.map(() => 'started'));
        // And the queues work: one enqueued through each instance is seen by all.
        for (const [i, q] of queues.entries()) await q.enqueue('note_generation', 'acct', `note-${i}`);
        expect((await queues[0]!.stats()).note_generation?.queued).toBe(queues.length);
      } finally {
        await Promise.allSettled(queues.map((q) => q.stop()));
      }
    }
  }, 60_000);
});
