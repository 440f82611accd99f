/**
 * Behind a TLS proxy every connection comes from the proxy. The failed-key throttle must still
 * tell the clinic's clients apart, on REST and on the streaming socket alike, by the address the
 * trusted proxy forwards; and without a declared proxy a client cannot pick its address by
 * sending X-Forwarded-For.
 */
import { afterAll, describe, expect, it } from 'vitest';
import express from 'express';
import { createServer, request, type Server } from 'node:http';
import { WebSocket } from 'ws';
import { clientAddress, type ProxyTrust } from '../../main/server/middleware/client-address.js';
import { startServer, type TestServer } from '../support/server.js';

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the streaming socket computes the client address as express does', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    for (const srv of servers) await new Promise((r) => srv.close(r));
  });

  it('matches req.ip for every trust setting and forwarded chain', async () => {
    const chains = ['', '203.0.113.9', '203.0.113.9, 127.0.0.1', 'spoofed, 198.51.100.7', '198.51.100.7,10.0.0.2', ' 10.0.0.3 , 127.0.0.5 '];
    for (const trust of [false, ['loopback'], ['10.0.0.2'], ['loopback', '10.0.0.0/8']]) {
      const app = express();
      app.set('trust proxy', trust);
      const mine = clientAddress(app.get('trust proxy fn') as ProxyTrust);
      app.get('/', (req, res) => void res.json({ express: req.ip, mine: mine(req) }));
      const srv = createServer(app);
      servers.push(srv);
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
      const port = (srv.address() as { port: number }).port;
      for (const chain of chains) {
        const { body } = await get(port, '/', chain ? { 'x-forwarded-for': chain } : {});
        const { express: theirs, mine: ours } = JSON.parse(body) as { express: string; mine: string };
        expect({ trust, chain, ours }).toEqual({ trust, chain, ours: theirs });
      }
    }
  });
});

describe('failed keys counted per forwarded client', () => {
  const env = { CLINDOC_AUTH_MAX_FAILURES: '2', CLINDOC_AUTH_DELAY_MS: '0' };
  const wrong = (s: TestServer, forwardedFor: string) =>
    get(s.port, '/v1/notes', { 'x-account-id': s.creds.accountId, 'x-api-key': 'cdk_wrong_key_wrong_key', 'x-forwarded-for': forwardedFor });
  const right = (s: TestServer, forwardedFor: string) =>
    get(s.port, '/v1/notes', { 'x-account-id': s.creds.accountId, 'x-api-key': s.creds.apiKey, 'x-forwarded-for': forwardedFor });
  const socket = (s: TestServer, forwardedFor: string): Promise<number | 'open'> =>
    new Promise((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, {
        headers: { 'x-account-id': s.creds.accountId, 'x-api-key': s.creds.apiKey, 'x-forwarded-for': forwardedFor },
      });
      // A refusal is an error message then close 1008; an accepted session stays open.
      const timer = setTimeout(() => {
        ws.close(1000);
        resolve('open');
      }, 1500);
      ws.on('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
      ws.on('error', () => undefined);
    });

  it('behind a TLS proxy: locks out the guessing client only, over REST and the socket', async () => {
    const s = await startServer({ ...env, CLINDOC_BEHIND_TLS_PROXY: 'true' });
    try {
      for (let i = 0; i < 2; i++) expect((await wrong(s, '203.0.113.9')).status).toBe(401);
      expect((await right(s, '203.0.113.9')).status).toBe(429);
      expect(await socket(s, '203.0.113.9')).toBe(1008);
      // The physician at the next desk comes through the same proxy and is not locked out.
      expect((await right(s, '198.51.100.7')).status).toBe(200);
      expect(await socket(s, '198.51.100.7')).toBe('open');
    } finally {
      await s.close();
    }
  }, 30_000);

  it('without a declared proxy: X-Forwarded-For is ignored, so a guesser cannot change address by header', async () => {
    const s = await startServer(env);
    try {
      for (let i = 0; i < 2; i++) expect((await wrong(s, `203.0.113.${i + 1}`)).status).toBe(401);
      expect((await right(s, '198.51.100.7')).status).toBe(429);
      expect(await socket(s, '198.51.100.8')).toBe(1008);
    } finally {
      await s.close();
    }
  }, 30_000);
});
