import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { startServer, waitFor, type TestServer } from '../support/server.js';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Verifies a Standard Webhooks signature the way a receiver would. */
function verify(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${r.body}`).digest('base64');
  return String(r.headers['webhook-signature']).split(' ').some((sig) => sig === `v1,${expected}`);
}

describe('webhooks', () => {
  let s: TestServer;
  let receiver: Server;
  let url: string;
  const received: Received[] = [];
  let failuresLeft = 0;
  /** Runs before the receiver answers (lets a test change state between attempts deterministically). */
  let beforeAnswer: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', async () => {
        received.push({ headers: req.headers, body });
        const hook = beforeAnswer;
        beforeAnswer = undefined;
        await hook?.();
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.statusCode = 500;
        }
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    s = await startServer({}, { webhookRetryDelaysMs: [200, 400, 800] });
  });
  afterAll(async () => {
    await s.close();
    receiver.close();
  });

  const hook = async (events?: string[]) => {
    const res = await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ url, ...(events ? { events } : {}) }) });
    expect(res.status).toBe(201);
    return (await res.json()).data as { id: string; secret: string };
  };

  it('validates webhook URLs', async () => {
    for (const bad of ['not a url', 'ftp://127.0.0.1/x', 'http://example.com/hook', 'https://user:pw@example.com/x']) {
      const res = await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ url: bad }) });
      expect(res.status).toBe(400);
    }
  });

  it('delivers a signed note event, retrying after a failing receiver, recording every attempt', { timeout: 120_000 }, async () => {
    const { id, secret } = await hook(['note_generation.succeeded']);
    failuresLeft = 2;
    received.length = 0;
    const noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: '[patient] I have a rash on my arm.' }) })).json()).data.noteId;
    // The first note after a start waits for the compute worker to load the writer (seconds on a loaded machine).
    await waitFor(async () => (received.length >= 3 ? true : undefined), 60_000);
    expect(received.slice(0, 3).every((r) => verify(secret, r))).toBe(true);
    const event = JSON.parse(received[2]!.body);
    expect(event).toMatchObject({ type: 'note_generation.succeeded', data: { id: noteId, status: 'STATUS_DONE' } });
    expect(received[0]!.headers['webhook-id']).toBe(received[2]!.headers['webhook-id']);
    expect(received[2]!.body).not.toContain('rash');
    const tampered = { ...received[2]!, body: received[2]!.body.replace('succeeded', 'failed') };
    expect(verify(secret, tampered)).toBe(false);
    const attempts = () =>
      s.query<{ code: number }>('SELECT a.status_code AS code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.resource_id = ? ORDER BY a.attempt', [noteId]);
    const rows = await waitFor(async () => {
      const all = await attempts();
      return all.length >= 3 ? all : undefined;
    }, 10_000);
    expect(rows.map((r) => r.code)).toEqual([500, 500, 200]);
    await fetch(`${s.base}/v1/webhooks/${id}`, { method: 'DELETE', headers: s.headers() });
  });

  it('does not deliver an event for a note deleted before the retry', { timeout: 120_000 }, async () => {
    const { id } = await hook(['note_generation.succeeded']);
    failuresLeft = 1;
    received.length = 0;
    let noteId = '';
    // The note is deleted while the first attempt is in flight; that attempt then fails, and the
    // retry must find the note gone and cancel rather than deliver.
    beforeAnswer = async () => {
      await fetch(`${s.base}/v1/notes/${noteId}`, { method: 'DELETE', headers: s.headers() });
    };
    noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: '[patient] My back hurts.' }) })).json()).data.noteId;
    await waitFor(async () => (received.length >= 1 ? true : undefined), 60_000);
    await waitFor(async () => {
      const [row] = await s.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE resource_id = ?', [noteId]);
      return row?.status === 'cancelled' ? true : undefined;
    }, 10_000);
    expect(received).toHaveLength(1);
    await fetch(`${s.base}/v1/webhooks/${id}`, { method: 'DELETE', headers: s.headers() });
  });

  it('refuses a per-request webhookUrl that is not registered', async () => {
    const res = await fetch(`${s.base}/v2/audio/transcriptions?webhookUrl=${encodeURIComponent('http://127.0.0.1:1/unregistered')}`, {
      method: 'POST', headers: { ...s.headers(), 'content-type': 'audio/wav' }, body: new Uint8Array(100),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/webhookUrl/);
  });
});
