import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

// On PostgreSQL the dead letters are pg-boss's own (test/jobs-pg/pg-queue.test.ts covers them);
// here the SQLite runner's failed jobs, which the route reads from the jobs table.
describe.skipIf(process.env.CLINDOC_TEST_DATABASE === 'postgres')('GET /v1/jobs/dead-letters on the SQLite runner', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
  });
  afterAll(() => s.close());

  const job = (id: string, accountId: string, kind: string, status: string, at: number, error: string | null) =>
    s.query(
      `INSERT INTO jobs (id, kind, account_id, resource_id, status, attempts, run_after, last_error, created_at, updated_at) VALUES (?,?,?,?,?,5,?,?,?,?)`,
      [id, kind, accountId, `res-${id}`, status, at, error, at, at],
    );

  it("lists the account's jobs that failed every attempt, newest first, and nothing else", async () => {
    const me = s.creds.accountId;
    await job('j-old', me, 'note_generation', 'failed', 1_000, 'the note engine is not reachable');
    await job('j-new', me, 'audio_transcription', 'failed', 2_000, null);
    await job('j-done', me, 'note_generation', 'done', 3_000, null);
    await job('j-queued', me, 'note_generation', 'queued', 4_000, 'retrying');
    await job('j-model', me, 'model_pull', 'failed', 5_000, 'download failed');
    await job('j-other', 'acct_someone_else', 'note_generation', 'failed', 6_000, 'theirs');

    const res = await fetch(`${s.base}/v1/jobs/dead-letters`, { headers: s.headers() });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.items).toEqual([
      { id: 'j-new', kind: 'audio_transcription', resourceId: 'res-j-new', attempts: 5, message: 'job failed', failedAt: new Date(2_000).toISOString() },
      { id: 'j-old', kind: 'note_generation', resourceId: 'res-j-old', attempts: 5, message: 'the note engine is not reachable', failedAt: new Date(1_000).toISOString() },
    ]);

    const one = await (await fetch(`${s.base}/v1/jobs/dead-letters?limit=1`, { headers: s.headers() })).json();
    expect(one.data.items.map((d: { id: string }) => d.id)).toEqual(['j-new']);
    const bad = await fetch(`${s.base}/v1/jobs/dead-letters?limit=0`, { headers: s.headers() });
    expect(bad.status).toBe(400);
    expect((await fetch(`${s.base}/v1/jobs/dead-letters`)).status).toBe(401);
  });
});
