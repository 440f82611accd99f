/**
 * TLS and exposure for clinic servers: a self-signed certificate made with `openssl req` here,
 * HTTPS and WSS with that certificate trusted, start-up refused on a network address without TLS
 * or a declared TLS proxy, and the Host/Origin rules under the clinic's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { ConfigError, isLoopbackHost, loadConfig } from '../../main/config.js';
import { startServer, type TestServer } from '../support/server.js';
import { freePort, startHeadless } from '../support/child.js';

const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
const hasOpenssl = openssl.status === 0;
if (!hasOpenssl) process.stdout.write('tls.test: openssl is not installed; the HTTPS tests are skipped (apt-get install openssl)\n');

const dir = mkdtempSync(join(tmpdir(), 'clindoc-tls-'));
const certPath = join(dir, 'cert.pem');
const keyPath = join(dir, 'key.pem');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function makeCertificate(): void {
  const made = spawnSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '2',
    '-subj', '/CN=clinic.example', '-addext', 'subjectAltName=DNS:clinic.example,IP:127.0.0.1',
  ], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr}`);
}

interface Answer { status: number; body: string }

/** A GET to 127.0.0.1 with the Host and headers given: over HTTPS trusting `ca` (or nothing), or plain HTTP as nginx forwards one. */
function get(port: number, path: string, headers: Record<string, string>, transport: { tls: true; ca?: Buffer } | { tls: false }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const answer = (res: IncomingMessage): void => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    };
    const req = transport.tls
      ? request({ host: '127.0.0.1', port, path, servername: 'clinic.example', headers, ...(transport.ca ? { ca: transport.ca } : {}) }, answer)
      : httpRequest({ host: '127.0.0.1', port, path, headers }, answer);
    req.on('error', reject);
    req.end();
  });
}

/** Opens the dictation socket at `base` and closes it again: 'open', the refusal's HTTP status, or -1 when it could not connect. */
function openSocket(base: string, options: { ca?: Buffer; headers: Record<string, string> }): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, options);
    ws.on('open', () => {
      ws.close(1000);
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

const httpsGet = (port: number, path: string, headers: Record<string, string>, ca?: Buffer): Promise<Answer> => get(port, path, headers, { tls: true, ...(ca ? { ca } : {}) });
const proxiedGet = (port: number, path: string, headers: Record<string, string>): Promise<Answer> => get(port, path, headers, { tls: false });

describe('refusing to listen on the network without TLS', () => {
  const base = { CLINDOC_DATA_DIR: dir };
  it('knows loopback addresses from network ones', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'clinic.example', '128.0.0.1']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('refuses 0.0.0.0 or a LAN address with neither TLS nor a declared TLS proxy, naming CLINDOC_HOST', () => {
    for (const host of ['0.0.0.0', '10.0.0.5']) {
      expect(() => loadConfig({ ...base, CLINDOC_HOST: host }, dir)).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, CLINDOC_HOST: host }, dir)).toThrow(/^CLINDOC_HOST: .*CLINDOC_TLS_CERT.*CLINDOC_BEHIND_TLS_PROXY/);
    }
    const proxied = loadConfig({ ...base, CLINDOC_HOST: '0.0.0.0', CLINDOC_BEHIND_TLS_PROXY: 'true', CLINDOC_TRUSTED_PROXIES: '10.0.0.2, 10.1.0.0/16' }, dir);
    expect(proxied).toMatchObject({ host: '0.0.0.0', behindTlsProxy: true, trustedProxies: ['10.0.0.2', '10.1.0.0/16'] });
    expect(loadConfig(base, dir)).toMatchObject({ behindTlsProxy: false, trustedProxies: ['loopback'], drainSeconds: 30 });
  });

  it('wants the certificate and the key together, both existing, and a token long enough', () => {
    expect(() => loadConfig({ ...base, CLINDOC_TLS_CERT: join(dir, 'nope.pem') }, dir)).toThrow(/^CLINDOC_TLS_KEY: /);
    expect(() => loadConfig({ ...base, CLINDOC_TLS_CERT: join(dir, 'nope.pem'), CLINDOC_TLS_KEY: join(dir, 'nope.key') }, dir)).toThrow(/^CLINDOC_TLS_CERT: file does not exist/);
    expect(() => loadConfig({ ...base, CLINDOC_METRICS_TOKEN: 'short' }, dir)).toThrow(/^CLINDOC_METRICS_TOKEN: /);
    expect(() => loadConfig({ ...base, CLINDOC_METRICS_TOKEN: 'short' }, dir)).not.toThrow(/short/);
    expect(() => loadConfig({ ...base, CLINDOC_TRUSTED_PROXIES: 'nginx.local' }, dir)).toThrow(/^CLINDOC_TRUSTED_PROXIES: /);
  });

  it('`npm run serve` exits 2 with the reason instead of listening on 0.0.0.0 in clear', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-tls-refuse-'));
    try {
      await expect(startHeadless({ CLINDOC_HOST: '0.0.0.0', CLINDOC_PORT: String(await freePort()), CLINDOC_DATA_DIR: dataDir }))
        .rejects.toThrow(/server exited with 2:[\s\S]*configuration error: CLINDOC_HOST: "0\.0\.0\.0" is reachable from the network/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!hasOpenssl)('HTTPS and WSS under the clinic\'s name', () => {
  let s: TestServer;
  let ca: Buffer;
  beforeAll(async () => {
    makeCertificate();
    ca = readFileSync(certPath);
    // A network listen address, allowed because the server speaks TLS itself.
    s = await startServer({ CLINDOC_HOST: '0.0.0.0', CLINDOC_TLS_CERT: certPath, CLINDOC_TLS_KEY: keyPath, CLINDOC_ALLOWED_HOSTS: 'clinic.example' });
  });
  afterAll(() => s?.close());

  it('speaks HTTPS with the configured certificate, and not plain HTTP', async () => {
    const ok = await httpsGet(s.port, '/healthz', { host: 'clinic.example' }, ca);
    expect(ok).toEqual({ status: 200, body: '{"status":"ok"}' });
    // Without the certificate trusted the client refuses: this really is the self-signed one.
    await expect(httpsGet(s.port, '/healthz', { host: 'clinic.example' })).rejects.toThrow(/self[- ]signed/i);
    await expect(fetch(`http://127.0.0.1:${s.port}/healthz`)).rejects.toThrow();
    const doc = JSON.parse((await httpsGet(s.port, '/openapi.json', { host: `127.0.0.1:${s.port}` }, ca)).body) as { servers: { url: string }[] };
    expect(doc.servers[0]!.url).toBe(`https://127.0.0.1:${s.port}`);
    expect(s.clindoc.signInLink()).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${s.port}/#token=`));
  });

  it('accepts the clinic\'s name with or without the port and its https origin, and nothing else', async () => {
    const keys = { 'x-api-key': s.creds.apiKey, 'x-account-id': s.creds.accountId };
    const status = async (headers: Record<string, string>): Promise<number> => (await httpsGet(s.port, '/v1/notes', { ...keys, ...headers }, ca)).status;
    expect(await status({ host: 'clinic.example' })).toBe(200);
    expect(await status({ host: `clinic.example:${s.port}` })).toBe(200);
    expect(await status({ host: `127.0.0.1:${s.port}` })).toBe(200);
    expect(await status({ host: 'clinic.example', origin: 'https://clinic.example' })).toBe(200);
    expect(await status({ host: 'clinic.example', origin: `https://clinic.example:${s.port}` })).toBe(200);
    // DNS rebinding and foreign pages stay out; the clinic's name in clear is not its origin.
    expect(await status({ host: 'evil.example' })).toBe(403);
    expect(await status({ host: '127.0.0.1' })).toBe(403);
    expect(await status({ host: 'clinic.example', origin: 'http://clinic.example' })).toBe(403);
    expect(await status({ host: 'clinic.example', origin: 'https://evil.example' })).toBe(403);
  });

  it('opens the dictation socket over WSS under the clinic\'s name, and refuses a foreign origin', async () => {
    const open = (origin: string): Promise<number | 'open'> =>
      openSocket(`wss://127.0.0.1:${s.port}`, { ca, headers: { host: 'clinic.example', origin, 'x-api-key': s.creds.apiKey, 'x-account-id': s.creds.accountId } });
    expect(await open('https://clinic.example')).toBe('open');
    expect(await open('https://evil.example')).toBe(403);
  }, 30_000);
});

// The deployment of docs/deploy.md: nginx ends TLS and forwards to Clindoc on loopback in plain HTTP.
describe('behind a TLS proxy under the clinic\'s name', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_BEHIND_TLS_PROXY: 'true', CLINDOC_ALLOWED_HOSTS: 'clinic.example' });
  });
  afterAll(() => s?.close());

  it('accepts the clinic\'s name without a port and its https origin as forwarded by the proxy, and nothing else', async () => {
    const keys = { 'x-api-key': s.creds.apiKey, 'x-account-id': s.creds.accountId };
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.1.2.3' };
    const status = async (headers: Record<string, string>): Promise<number> => (await proxiedGet(s.port, '/v1/notes', { ...keys, ...forwarded, ...headers })).status;
    expect(await status({ host: 'clinic.example' })).toBe(200);
    expect(await status({ host: 'clinic.example', origin: 'https://clinic.example' })).toBe(200);
    expect(await status({ host: 'evil.example' })).toBe(403);
    expect(await status({ host: 'clinic.example', origin: 'http://clinic.example' })).toBe(403);
    expect(await status({ host: 'clinic.example', origin: 'https://evil.example' })).toBe(403);
    // The OpenAPI document names the service as its clients reach it, through the proxy.
    const doc = JSON.parse((await proxiedGet(s.port, '/openapi.json', { host: 'clinic.example', ...forwarded })).body) as { servers: { url: string }[] };
    expect(doc.servers[0]!.url).toMatch(/^https:\/\/clinic\.example/);
  });

  it('opens the dictation socket for the clinic\'s https origin and refuses a foreign one', async () => {
    const open = (origin: string): Promise<number | 'open'> =>
      openSocket(`ws://127.0.0.1:${s.port}`, {
        headers: { host: 'clinic.example', origin, 'x-forwarded-proto': 'https', 'x-api-key': s.creds.apiKey, 'x-account-id': s.creds.accountId },
      });
    expect(await open('https://clinic.example')).toBe('open');
    expect(await open('https://evil.example')).toBe(403);
  }, 30_000);
});
