import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { finishedNote, startServer, type TestServer } from '../support/server.js';

// On PostgreSQL the dead letters are pg-boss's own (test/jobs-pg/pg-queue.test.ts, and the suite below);
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

// On either backend (the SQLite runner, or pg-boss with CLINDOC_TEST_DATABASE=postgres): a note job
// whose language model cannot be reached is retried, fails, and is listed through the API.
describe('GET /v1/jobs/dead-letters after a job fails every attempt', () => {
  let s: TestServer;
  beforeAll(async () => {
    // A port that refuses connections: take a free one and close it again.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    s = await startServer({
      CLINDOC_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, CLINDOC_LLM_MODEL: 'unreachable', CLINDOC_LLM_MAX_RETRIES: '0',
      // Without a fallback to the embedded writer: this is the failure path dead letters exist for.
      CLINDOC_JOB_MAX_ATTEMPTS: '2', CLINDOC_ENGINE_FAILURE: 'fail',
    });
  });
  afterAll(() => s.close());

  it('lists the failed note job with its attempts and a message free of patient data', async () => {
    const marker = 'Quixotic fernleaf rash on the left shin';
    const res = await fetch(`${s.base}/v1/notes`, {
      method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: `[patient] ${marker}. [doctor] We will treat it.` }),
    });
    expect(res.status).toBe(202);
    const noteId = (await res.json()).data.noteId as string;
    const note = await finishedNote(s, noteId);
    expect(note.status).toBe('STATUS_FAILED');

    const { data } = await (await fetch(`${s.base}/v1/jobs/dead-letters`, { headers: s.headers() })).json();
    expect(data.items).toHaveLength(1);
    const [letter] = data.items;
    expect(letter).toMatchObject({ kind: 'note_generation', resourceId: noteId, attempts: 2 });
    expect(typeof letter.message).toBe('string');
    expect(JSON.stringify(letter)).not.toContain('fernleaf');
    expect(Date.parse(letter.failedAt)).toBeGreaterThan(Date.now() - 120_000);
  }, 60_000);
});
