import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { openDatabase } from '../../main/store/database.js';
import { createAccountStore } from '../../main/store/account-store.js';
import { createAccountService } from '../../main/services/accounts/account-service.js';
import { navigationAllowed, permissionAllowed, windowOptions } from '../../main/app/window-options.js';
import { authHeaders } from './helpers.js';

/** A raw request, so the test controls `Host` (fetch does not let a page, or a test, set it). */
function raw(port: number, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the handshake's HTTP status when refused, or the close code when it opened. */
function wsAttempt(url: string, headers: Record<string, string>): Promise<{ refusedStatus?: number; closeCode?: number; messages: string[] }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    const messages: string[] = [];
    ws.on('unexpected-response', (_req, res) => {
      resolve({ refusedStatus: res.statusCode ?? 0, messages });
      ws.terminate();
    });
    ws.on('message', (d) => {
      messages.push(String(d));
      if (String(d).includes('"connected"')) ws.close(1000);
    });
    ws.on('close', (code) => resolve({ closeCode: code, messages }));
    ws.on('error', () => undefined);
  });
}

const SECURITY_HEADERS = ['x-content-type-options', 'x-frame-options', 'content-security-policy', 'referrer-policy', 'cache-control', 'cross-origin-resource-policy'];

describe('a web page in the physician\'s browser cannot use the local API', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
  });
  afterAll(() => s.close());

  it('refuses foreign and opaque origins on every method, preflight included, with no CORS grant', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost.evil.example:80']) {
      for (const [method, path] of [['GET', '/v1/notes'], ['POST', '/v1/notes'], ['OPTIONS', '/v1/notes'], ['GET', '/openapi.json'], ['GET', '/']]) {
        const res = await raw(s.port, method!, path!, { ...authHeaders(s.creds), Host: `127.0.0.1:${s.port}`, Origin: origin });
        expect(res.status, `${method} ${path} from ${origin}`).toBe(403);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.body).not.toContain('"items"');
      }
    }
    // The app's own origin is let through.
    const own = await raw(s.port, 'GET', '/v1/notes', { ...authHeaders(s.creds), Host: `127.0.0.1:${s.port}`, Origin: `http://127.0.0.1:${s.port}` });
    expect(own.status).toBe(200);
  });

  it('refuses DNS-rebinding Host headers (a hostile name that resolves to 127.0.0.1)', async () => {
    for (const host of ['evil.example', `evil.example:${s.port}`, `127.0.0.1.evil.example:${s.port}`, `localhost:${s.port + 1}`, `127.0.0.1:${s.port}@evil.example`]) {
      const res = await raw(s.port, 'GET', '/v1/notes', { ...authHeaders(s.creds), Host: host });
      expect(res.status, `Host "${host}"`).toBe(403);
    }
    expect((await raw(s.port, 'GET', '/v1/notes', { ...authHeaders(s.creds), Host: `localhost:${s.port}` })).status).toBe(200);
  });

  it('refuses the streaming socket to foreign origins and rebinding hosts', async () => {
    const url = `ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?encoding=linear16`;
    const creds = { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': s.creds.accountId };
    const foreign = await wsAttempt(url, { ...creds, Origin: 'https://evil.example' });
    const rebinding = await wsAttempt(url, { ...creds, Host: `evil.example:${s.port}` });
    for (const attempt of [foreign, rebinding]) {
      expect(attempt.messages.some((m) => m.includes('"connected"'))).toBe(false);
      expect(attempt.refusedStatus === 403 || attempt.closeCode === 1008).toBe(true);
    }
    const own = await wsAttempt(url, { ...creds, Origin: `http://127.0.0.1:${s.port}` });
    expect(own.messages.some((m) => m.includes('"connected"'))).toBe(true);
  });

  it('takes no credentials from URLs on REST routes (only the streaming token, on the socket)', async () => {
    const token = ((await (await fetch(`${s.base}/v1/audio/transcriptions/stream/token`, { method: 'POST', headers: s.headers() })).json()) as { token: string }).token;
    for (const query of [`api_key=${s.creds.apiKey}&account_id=${s.creds.accountId}`, `X-API-KEY=${s.creds.apiKey}&X-ACCOUNT-ID=${s.creds.accountId}`, `api_token=${token}&account_id=${s.creds.accountId}`]) {
      expect((await fetch(`${s.base}/v1/notes?${query}`)).status).toBe(401);
    }
    // The request log never records a query string (it can hold the streaming token).
    expect(s.logs.join('\n')).not.toContain(token);
  });

  it('sets the security headers on every response, errors included', async () => {
    const responses = await Promise.all([
      fetch(`${s.base}/healthz`), fetch(`${s.base}/openapi.json`), fetch(`${s.base}/v1/notes`, { headers: s.headers() }),
      fetch(`${s.base}/v1/notes`), fetch(`${s.base}/v1/notes/nope`, { headers: s.headers() }), fetch(`${s.base}/no-such-path`),
      fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: '{"transcript":' }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 401, 404, 404, 400]);
    for (const res of responses) {
      for (const h of SECURITY_HEADERS) expect(res.headers.get(h), `${res.url} ${h}`).toBeTruthy();
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('stops a revoked key at once, with the streaming tokens it issued, and records key use', async () => {
    const created = await s.clindoc.accounts.createKey(s.creds.accountId);
    const creds = { accountId: s.creds.accountId, apiKey: created.apiKey };
    const lastUsed = async (): Promise<number | null | undefined> => (await s.clindoc.accounts.listKeys(s.creds.accountId)).find((k) => k.id === created.keyId)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const token = ((await (await fetch(`${s.base}/v1/audio/transcriptions/stream/token`, { method: 'POST', headers: authHeaders(creds) })).json()) as { token: string }).token;
    // The last-used time is written without holding up the request.
    expect(await waitFor(async () => ((await lastUsed()) ?? undefined))).toBeGreaterThan(0);
    await s.clindoc.accounts.revokeKey(created.keyId);
    expect((await fetch(`${s.base}/v1/notes`, { headers: authHeaders(creds) })).status).toBe(401);
    const socket = await wsAttempt(`ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?account_id=${s.creds.accountId}&api_token=${token}`, {});
    expect(socket.closeCode).toBe(1008);
  });
});

describe('CORS is off by default and grants only configured origins', () => {
  it('answers a configured origin\'s preflight with that origin only', async () => {
    const s = await startServer({ CLINDOC_CORS_ORIGINS: 'http://ehr.example:3000', CLINDOC_JOB_CONCURRENCY: '0' });
    try {
      const ok = await raw(s.port, 'OPTIONS', '/v1/notes', { Host: `127.0.0.1:${s.port}`, Origin: 'http://ehr.example:3000', 'Access-Control-Request-Method': 'POST' });
      expect(ok.status).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('http://ehr.example:3000');
      expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
      const other = await raw(s.port, 'OPTIONS', '/v1/notes', { Host: `127.0.0.1:${s.port}`, Origin: 'http://other.example:3000' });
      expect(other.status).toBe(403);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('streaming tokens are short-lived and scoped', () => {
  it('expire after their lifetime and only open their own account', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-token-'));
    const db = openDatabase(join(dir, 'db.sqlite'));
    try {
      let now = 1_000_000;
      const accounts = createAccountService({ store: createAccountStore(db), now: () => now });
      const a = await accounts.createAccount('A');
      const b = await accounts.createAccount('B');
      const { token } = await accounts.issueStreamToken({ accountId: a.account.id, keyId: a.keyId }, 60);
      expect((await accounts.authenticateStreamToken(token, a.account.id)).accountId).toBe(a.account.id);
      await expect(accounts.authenticateStreamToken(token, b.account.id)).rejects.toThrow();
      now += 61_000;
      await expect(accounts.authenticateStreamToken(token, a.account.id)).rejects.toThrow(/expired/);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the renderer's Electron settings (desktop issue), re-checked", () => {
  it('keeps the renderer isolated, sandboxed and without Node, on its own origin, with only the microphone', () => {
    const prefs = windowOptions('/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInWorker: false, nodeIntegrationInSubFrames: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false });
    const app = 'http://127.0.0.1:8080';
    expect(navigationAllowed('https://evil.example/', app)).toBe(false);
    expect(navigationAllowed(`${app}/notes`, app)).toBe(true);
    expect(permissionAllowed('media', `${app}/`, app, ['audio'])).toBe(true);
    expect(permissionAllowed('media', `${app}/`, app, ['video'])).toBe(false);
    expect(permissionAllowed('media', 'https://evil.example/', app, ['audio'])).toBe(false);
    expect(permissionAllowed('geolocation', `${app}/`, app)).toBe(false);
  });
});
