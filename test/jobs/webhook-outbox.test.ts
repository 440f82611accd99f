import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { ROOT } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { wavBytes } from '../support/audio.js';

/** Runs the dying worker (outbox-child.ts) on the data folder; resolves with how it ended and what it printed. */
function runDyingWorker(env: Record<string, string>): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'jobs', 'outbox-child.ts')], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (_code, signal) => resolve({ signal, out }));
  });
}

describe('webhook outbox: a note\'s final write and its event are one transaction', () => {
  let receiver: Server;
  let hookUrl: string;
  const received: { id: string; body: { type: string; data: { id: string } } }[] = [];
  let dataDir: string;
  let server: TestServer | undefined;
  /** The local account, made by the first start (a later start on the same folder makes none). */
  let account: { accountId: string; apiKey: string };
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        // A delivery cut short by the sender's death is answered 400 and not counted: the sender
        // must deliver it again, whole.
        try {
          received.push({ id: String(req.headers['webhook-id']), body: JSON.parse(body) as { type: string; data: { id: string } } });
        } catch {
          res.statusCode = 400;
        }
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    dataDir = mkdtempSync(join(tmpdir(), 'clindoc-outbox-'));
  });
  afterAll(async () => {
    await server?.close();
    receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the event of a note whose worker was killed right after writing it, once, when a process starts again', async () => {
    const first = await startServer({ CLINDOC_DATA_DIR: dataDir });
    const registered = await fetch(`${first.base}/v1/webhooks`, { method: 'POST', headers: first.headers(), body: JSON.stringify({ url: hookUrl, events: ['note_generation.succeeded'] }) });
    expect(registered.status).toBe(201);
    account = first.creds;
    const { accountId } = account;
    const { databaseUrl, encryptionKey } = first.clindoc.config;
    await first.close();

    const worker = await runDyingWorker({
      DATA_DIR: dataDir, ACCOUNT_ID: accountId,
      ...(databaseUrl ? { CLINDOC_DATABASE_URL: databaseUrl } : {}), ...(encryptionKey ? { CLINDOC_ENCRYPTION_KEY: encryptionKey } : {}),
    });
    expect(worker.signal, worker.out).toBe('SIGKILL');
    expect(worker.out).toContain('written');
    expect(worker.out).not.toContain('survived');
    const noteId = /note (\S+)/.exec(worker.out)![1]!;
    if (!onPostgres) {
      // What the dead worker left: the note final, its event in the outbox, no delivery yet.
      const db = new Database(join(dataDir, 'clindoc.db'), { readonly: true });
      try {
        expect(db.prepare('SELECT status FROM notes WHERE id = ?').get(noteId)).toEqual({ status: 'STATUS_DONE' });
        expect(db.prepare('SELECT event, resource_id FROM webhook_outbox').all()).toEqual([{ event: 'note_generation.succeeded', resource_id: noteId }]);
        expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    }
    expect(received).toEqual([]);

    // The next start drains the outbox: the receiver hears of the note once.
    server = await startServer({ CLINDOC_DATA_DIR: dataDir });
    const deliveries = await waitFor(async () => {
      const rows = await server!.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE resource_id = ?', [noteId]);
      return rows.length > 0 && rows.every((r) => r.status === 'delivered') ? rows : undefined;
    }, 60_000);
    expect(deliveries).toHaveLength(1);
    expect(received.map((r) => [r.body.type, r.body.data.id])).toEqual([['note_generation.succeeded', noteId]]);
    expect(await server.query('SELECT id FROM webhook_outbox')).toEqual([]);
  }, 180_000); // two starts, a child compiled by tsx and a note: minutes on a loaded machine, seconds on a quiet one

  it('sends a transcription\'s event to its per-request webhookUrl through the outbox, even when that webhook subscribes to notes only', async () => {
    const s = server!; // the second start above, still running on the same data folder
    const upload = await fetch(`${s.base}/v2/audio/transcriptions?webhookUrl=${encodeURIComponent(hookUrl)}`, {
      method: 'POST', headers: { 'X-API-KEY': account.apiKey, 'X-ACCOUNT-ID': account.accountId, 'content-type': 'audio/wav' }, body: wavBytes(0.5),
    });
    expect(upload.status).toBe(202);
    const { id } = (await upload.json()) as { id: string };
    const event = await waitFor(async () => received.find((r) => r.body.data.id === id), 60_000);
    expect(event.body.type).toMatch(/^audio_transcription\.(succeeded|failed)$/);
    const rows = await s.query<{ event: string }>('SELECT event FROM webhook_deliveries WHERE resource_id = ?', [id]);
    expect(rows).toHaveLength(1);
    expect(await s.query('SELECT id FROM webhook_outbox')).toEqual([]);
  }, 120_000);
});
