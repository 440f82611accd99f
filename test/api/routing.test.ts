/**
 * How `/v1` and `/v2` requests find their route now that they go from the listener straight to the
 * front door and a find-my-way table (main/server/app.ts apiFirst, route-registry.ts dispatch):
 * the answers an integrator relied on under express's router stay the same, and every answer,
 * found or not, carries the same headers and lands in the log, the metrics and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { finishedNote, startServer, type TestServer } from '../support/server.js';

interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A request by node:http, so that HEAD and odd paths go out exactly as written. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('API routing', () => {
  let s: TestServer;
  let noteId: string;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_RATE_LIMIT: '1000' });
    const created = await fetch(`${s.base}/v1/notes`, {
      method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: 'Patient reports a mild headache since this morning.' }),
    });
    noteId = ((await created.json()) as { data: { noteId: string } }).data.noteId;
    // Finished, so that its answer no longer changes between two reads.
    await finishedNote(s, noteId);
  });
  afterAll(() => s.close());

  it('answers HEAD on a GET route with its headers and no body', async () => {
    const get = await send(s.port, 'GET', `/v1/notes/${noteId}`, s.headers());
    const head = await send(s.port, 'HEAD', `/v1/notes/${noteId}`, s.headers());
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
  });

  it('ignores a trailing slash and a query string the route does not read', async () => {
    const res = await send(s.port, 'GET', `/v1/notes/${noteId}/?unused=1`, s.headers());
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as { data: { id: string } }).data.id).toBe(noteId);
  });

  it('still validates a query string the route reads', async () => {
    const bad = await send(s.port, 'GET', '/v1/notes?limit=0', s.headers());
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ error: 400, message: expect.stringContaining('limit') });
    const good = await send(s.port, 'GET', '/v1/notes?limit=1', s.headers());
    expect(good.status).toBe(200);
  });

  it('answers an unknown path or method under /v1 with the 404 error body and every usual header', async () => {
    for (const [method, path] of [['GET', '/v1/no-such-thing'], ['DELETE', '/v1/macros/detect'], ['GET', '/v1'], ['PUT', '/v2/audio/transcriptions']]) {
      const res = await send(s.port, method!, path!, s.headers());
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ error: 404, message: expect.any(String) });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers a path that is not valid percent-encoding 400, not 500', async () => {
    const res = await send(s.port, 'GET', '/v1/notes/%E0%A4%A', s.headers());
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 400, message: expect.stringContaining('percent-encoding') });
  });

  it('reads a JSON body only for a caller with credentials', async () => {
    const anonymous = await send(s.port, 'POST', '/v1/notes', { 'content-type': 'application/json' }, '{not json');
    expect(anonymous.status).toBe(401);
    const known = await send(s.port, 'POST', '/v1/notes', s.headers(), '{not json');
    expect(known.status).toBe(400);
    expect(JSON.parse(known.body)).toEqual({ error: 400, message: 'request body is not valid JSON' });
    const tooLarge = await send(s.port, 'POST', '/v1/notes', s.headers(), JSON.stringify({ transcript: 'x'.repeat(11 * 1024 * 1024) }));
    expect(tooLarge.status).toBe(413);
  });

  it('keeps the host rule on API paths: a foreign Host is refused before the route runs', async () => {
    const res = await send(s.port, 'GET', `/v1/notes/${noteId}`, { ...s.headers(), Host: 'evil.example' });
    expect(res.status).toBe(403);
  });

  it('logs, counts and audits API answers by their route template', async () => {
    const before = s.logs.length;
    const res = await send(s.port, 'GET', `/v1/notes/${noteId}`, s.headers({ 'X-Request-Id': 'routing-test-1' }));
    expect(res.headers['x-request-id']).toBe('routing-test-1');
    const line = s.logs.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.reqId === 'routing-test-1');
    expect(line).toMatchObject({ method: 'GET', route: '/v1/notes/:noteId', status: 200, accountId: s.creds.accountId });
    const metrics = await (await fetch(`${s.base}/metrics`)).text();
    expect(metrics).toMatch(/clindoc_http_requests_total\{method="GET",route="\/v1\/notes\/\{noteId\}",status="200"\} [1-9]/);
    const trail = (await (await fetch(`${s.base}/v1/audit-events?resourceId=${noteId}`, { headers: s.headers() })).json()) as { data: { items: { requestId: string; action: string }[] } };
    expect(trail.data.items.some((e) => e.requestId === 'routing-test-1' && e.action === 'read')).toBe(true);
  });
});
