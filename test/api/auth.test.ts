import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startServer, type TestServer } from '../support/server.js';

/** Raw request so the test controls Host and Origin exactly (fetch forbids setting Host). */
function raw(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication, origin defence and envelopes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_RATE_LIMIT: '1000' });
  });
  afterAll(() => s.close());

  it('answers 401 with the error body when the key is missing', async () => {
    const res = await fetch(`${s.base}/v1/notes`, { headers: { 'X-ACCOUNT-ID': s.creds.accountId } });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body).toEqual({ error: 401, message: expect.any(String) });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 401 when the key belongs to another account', async () => {
    const other = await s.clindoc.accounts.createAccount('Other clinic');
    const res = await fetch(`${s.base}/v1/notes`, { headers: { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': other.account.id } });
    expect(res.status).toBe(401);
    const wrongKey = await fetch(`${s.base}/v1/notes`, { headers: { 'X-API-KEY': 'cdk_nope', 'X-ACCOUNT-ID': s.creds.accountId } });
    expect(wrongKey.status).toBe(401);
  });

  it('stops a revoked key at once', async () => {
    const key = await s.clindoc.accounts.createKey(s.creds.accountId);
    const headers = { 'X-API-KEY': key.apiKey, 'X-ACCOUNT-ID': s.creds.accountId };
    expect((await fetch(`${s.base}/v1/notes`, { headers })).status).toBe(200);
    await s.clindoc.accounts.revokeKey(key.keyId);
    expect((await fetch(`${s.base}/v1/notes`, { headers })).status).toBe(401);
  });

  it('wraps success in {status, data, date} and sets rate-limit headers', async () => {
    const res = await fetch(`${s.base}/v1/notes`, { headers: s.headers() });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    expect(Array.isArray(body.data.items)).toBe(true);
    expect(new Date(body.date).toISOString()).toBe(body.date);
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(1000);
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
  });

  it('refuses a foreign Origin with 403 and accepts the app\'s own', async () => {
    const h = { ...s.headers(), host: `127.0.0.1:${s.port}` };
    const foreign = await raw(s.port, '/v1/notes', { ...h, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toEqual({ error: 403, message: expect.stringMatching(/origin/i) });
    const own = await raw(s.port, '/v1/notes', { ...h, origin: `http://127.0.0.1:${s.port}` });
    expect(own.status).toBe(200);
  });

  it('refuses a rebinding Host header with 403', async () => {
    const res = await raw(s.port, '/v1/notes', { ...s.headers(), host: `attacker.example:${s.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).message).toMatch(/host/i);
    const localhost = await raw(s.port, '/v1/notes', { ...s.headers(), host: `localhost:${s.port}` });
    expect(localhost.status).toBe(200);
  });

  it('serves the OpenAPI document and docs without credentials', async () => {
    const doc = await (await fetch(`${s.base}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/v1/notes'].post.operationId).toBe('createNote');
    expect(doc.paths['/v1/macros/detect'].post.operationId).toBe('detectAndExpandMacros');
    const docs = await fetch(`${s.base}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
  });

  it('answers unknown paths with a 404 error body', async () => {
    const res = await fetch(`${s.base}/v1/nothing-here`, { headers: s.headers() });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 404, message: expect.any(String) });
  });
});

describe('rate limiting', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_RATE_LIMIT: '3', CLINDOC_RATE_WINDOW_SECONDS: '60' });
  });
  afterAll(() => s.close());

  it('answers 429 with Retry-After once the account spends its window', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await fetch(`${s.base}/v1/notes`, { headers: s.headers() });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await last!.json()).toEqual({ error: 429, message: expect.any(String) });
    // Another account has its own window.
    const other = await s.clindoc.accounts.createAccount('Second');
    const res = await fetch(`${s.base}/v1/notes`, { headers: { 'X-API-KEY': other.apiKey, 'X-ACCOUNT-ID': other.account.id } });
    expect(res.status).toBe(200);
  });
});
