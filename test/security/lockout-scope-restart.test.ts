/**
 * Issue 29, point 6: failed-key lockouts outlive a restart (kept in the database: SQLite's
 * auth_failures table, PostgreSQL's in clinic mode), and on loopback the app's own page (requests
 * carrying the app's own Origin) is counted apart, so wrong keys from another local program do
 * not lock the physician's interface out.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/server.js';

/** A REST call from a chosen loopback source address (Linux answers all of 127/8), with optional extra headers. */
function call(port: number, from: string, creds: { accountId: string; apiKey: string }, extra: Record<string, string> = {}): Promise<{ status: number; retryAfter: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/notes', localAddress: from, headers: { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, ...extra } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers['retry-after'] ?? 0) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const wrong = (i: number): string => `cdk_wrong${String(i).padStart(4, '0')}${'z'.repeat(30)}`;

describe('lockouts across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-lockout-restart-'));
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a lockout when the server restarts, for that client only', async () => {
    s = await startServer({ CLINDOC_DATA_DIR: dataDir, CLINDOC_AUTH_DELAY_MS: '0' });
    const creds = s.creds;
    for (let i = 0; i < 10; i++) expect((await call(s.port, '127.0.0.5', { accountId: creds.accountId, apiKey: wrong(i) })).status).toBe(401);
    expect((await call(s.port, '127.0.0.5', creds)).status).toBe(429);
    await s.clindoc.close();

    s = await startServer({ CLINDOC_DATA_DIR: dataDir, CLINDOC_AUTH_DELAY_MS: '0' });
    const after = await call(s.port, '127.0.0.5', creds);
    expect(after.status).toBe(429);
    expect(after.retryAfter).toBeGreaterThan(0);
    expect(after.retryAfter).toBeLessThanOrEqual(60);
    expect((await call(s.port, '127.0.0.6', creds)).status).toBe(200);
  }, 60_000);
});

describe('loopback lockouts and the app\'s own page', () => {
  let s: TestServer;
  afterAll(() => s?.close());

  it('does not lock the app\'s own page out after 50 wrong keys from another local program, which stays locked out', async () => {
    s = await startServer({ CLINDOC_AUTH_DELAY_MS: '0', CLINDOC_RATE_LIMIT: '100000' });
    const own = { origin: s.base };
    // Rotating account ids: the address-wide lockout (5 x 10 failures), which once covered every local program.
    for (let i = 0; i < 50; i++) await call(s.port, '127.0.0.1', { accountId: `acct_invented${i % 5}`, apiKey: wrong(i) });
    expect((await call(s.port, '127.0.0.1', s.creds)).status).toBe(429);
    expect((await call(s.port, '127.0.0.1', s.creds, own)).status).toBe(200);
    // An allow-listed or foreign origin is not the app's page: no separate count for it.
    expect((await call(s.port, '127.0.0.1', s.creds, { origin: 'http://localhost:1' })).status).toBe(403);

    // The page's own wrong keys still lock the page out.
    for (let i = 0; i < 10; i++) expect((await call(s.port, '127.0.0.1', { accountId: s.creds.accountId, apiKey: wrong(100 + i) }, own)).status).toBe(401);
    expect((await call(s.port, '127.0.0.1', s.creds, own)).status).toBe(429);
  }, 60_000);
});
