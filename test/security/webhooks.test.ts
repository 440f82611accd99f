import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { startServer, waitFor, type TestServer } from '../support/server.js';

/** Webhook delivery as an attacker-controlled receiver would probe it. */
describe('webhook delivery follows no redirects, times out, reads no body, and sends no content', () => {
  let s: TestServer;
  const servers: Server[] = [];
  let redirectTargetHits = 0;
  const payloads: string[] = [];
  const urls: Record<string, string> = {};

  const listen = async (name: string, handler: Parameters<typeof createServer>[1]): Promise<void> => {
    const srv = createServer(handler);
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    urls[name] = `http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`;
  };

  beforeAll(async () => {
    await listen('target', (_req, res) => {
      redirectTargetHits++;
      res.end('ok');
    });
    await listen('redirect', (req, res) => {
      req.resume();
      res.writeHead(307, { location: urls.target }).end();
    });
    await listen('silent', (req) => {
      req.resume(); // never answers
    });
    await listen('endless', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        payloads.push(body);
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
    });
    s = await startServer({ CLINDOC_WEBHOOK_TIMEOUT_MS: '300' }, { webhookRetryDelaysMs: [3_600_000] });
  });
  afterAll(async () => {
    await s.close();
    for (const srv of servers) srv.closeAllConnections();
    for (const srv of servers) srv.close();
  });

  it('records a redirect as a failed attempt, gives up on a silent receiver, and ignores an endless body', async () => {
    for (const name of ['redirect', 'silent', 'endless']) {
      const res = await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ url: urls[name] }) });
      expect(res.status).toBe(201);
    }
    const transcript = '[doctor] Mrs KESTRELWOMBAT, any chest pain? [patient] No.';
    const note = await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript }) })).json();
    type Row = { url: string; status_code: number | null; error: string | null; duration_ms: number };
    const attempts = await waitFor(async () => {
      const rows = await s.query<Row>('SELECT d.url, a.status_code, a.error, a.duration_ms FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id');
      return rows.length >= 3 ? rows : undefined;
    });
    const by = (name: string) => attempts.find((a) => a.url === urls[name])!;
    expect(by('redirect').status_code).toBe(307);
    expect(redirectTargetHits).toBe(0);
    // Given up at its timeout: a receiver never given up on would leave no attempt row, and waitFor above would fail.
    expect(by('silent')).toMatchObject({ status_code: null, error: 'timeout' });
    expect(by('silent').duration_ms).toBeGreaterThanOrEqual(250);
    expect(by('endless').status_code).toBe(200);
    const deliveries = await s.query<{ url: string; status: string }>('SELECT url, status FROM webhook_deliveries');
    expect(deliveries.find((d) => d.url === urls.redirect)?.status).toBe('pending'); // a 3xx is not a delivery: retried later
    expect(deliveries.find((d) => d.url === urls.endless)?.status).toBe('delivered');
    // The event names the note and its status; never its content.
    expect(payloads[0]).toContain(note.data.noteId);
    expect(payloads[0]).not.toContain('KESTRELWOMBAT');
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  });

  it('only targets URLs the account registered, and refuses credentials or foreign hosts in them', async () => {
    const upload = await fetch(`${s.base}/v2/audio/transcriptions?webhookUrl=${encodeURIComponent('http://127.0.0.1:1/not-registered')}`, {
      method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: new Uint8Array(100),
    });
    expect(upload.status).toBe(400);
    for (const url of ['http://user:pw@127.0.0.1:9/x', 'file:///etc/passwd', 'http://169.254.169.254/latest/meta-data']) {
      expect((await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ url }) })).status).toBe(400);
    }
  });
});
