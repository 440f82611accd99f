import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { freePort, startHeadless } from '../support/child.js';
import { waitFor } from '../support/server.js';
import { onPostgres } from '../support/database.js';

describe('durable note jobs across a SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-kill-'));
  let llm: Server | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    llm?.closeAllConnections();
    llm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-runs a job that was processing when the process was killed, and loses nothing accepted', { timeout: 120_000 }, async () => {
    // A language-model server on loopback that accepts the request and never answers, so the
    // note is held in STATUS_PROCESSING while the process is killed.
    let requests = 0;
    llm = createServer((req) => {
      requests += 1;
      req.resume();
    });
    await new Promise<void>((r) => llm!.listen(0, '127.0.0.1', () => r()));
    const llmPort = (llm.address() as { port: number }).port;
    const port = await freePort();
    // The polling below outruns the default rate limit, which PostgreSQL counts across restarts
    // (shared windows); a job a killed process held there is taken back after CLINDOC_JOB_EXPIRE_SECONDS.
    const env = { CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_RATE_LIMIT: '100000', CLINDOC_JOB_EXPIRE_SECONDS: '3' };
    const first = await startHeadless({ ...env, CLINDOC_LLM_BASE_URL: `http://127.0.0.1:${llmPort}/v1`, CLINDOC_LLM_MODEL: 'held', CLINDOC_LLM_TIMEOUT_MS: '600000' });
    child = first.child;
    const creds = first.credentials();
    const headers = { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, 'content-type': 'application/json' };
    const base = `http://127.0.0.1:${port}`;
    const post = async (transcript: string): Promise<string> =>
      (await (await fetch(`${base}/v1/notes`, { method: 'POST', headers, body: JSON.stringify({ transcript }) })).json()).data.noteId;
    const running = await post('[patient] I have had a sore throat for two days. [doctor] Your throat is red. Take ibuprofen.');
    const queued = await post('[patient] My ankle hurts after a fall. [doctor] The x-ray shows no fracture.');
    const statusOf = async (id: string): Promise<string> => (await (await fetch(`${base}/v1/notes/${id}`, { headers })).json()).data.status;
    await waitFor(async () => ((await statusOf(running)) === 'STATUS_PROCESSING' ? true : undefined));
    expect(await statusOf(queued)).toBe('STATUS_PENDING');
    // The job is really inside the engine call when the process dies.
    await waitFor(async () => (requests > 0 ? true : undefined));

    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    // Restart on the embedded writer: both notes finish.
    const second = await startHeadless(env);
    child = second.child;
    for (const id of [running, queued]) {
      const status = await waitFor(async () => {
        const s = await statusOf(id);
        return s === 'STATUS_DONE' || s === 'STATUS_FAILED' ? s : undefined;
      }, 60_000);
      expect(status).toBe('STATUS_DONE');
    }
    const note = await (await fetch(`${base}/v1/notes/${running}`, { headers })).json();
    expect(note.data.payload.markdown.toLowerCase()).toContain('throat');
    // The SQLite runner says what it queued again, and the desktop's local account is created on the
    // first start only; a clinic server's queue takes the job back by expiry, and it makes no account.
    if (!onPostgres) {
      expect(second.output()).toContain('queued again');
      expect(first.output()).toContain('created the local account');
      expect(second.output()).not.toContain('created the local account');
    }
  });
});
