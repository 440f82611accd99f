/**
 * Issue 29, point 6: a client that sends its request a byte at a time is cut off at the request
 * deadline (CLINDOC_REQUEST_TIMEOUT_SECONDS), head or body; connections beyond
 * CLINDOC_MAX_CONNECTIONS are closed as they arrive, and the server answers again once some go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { startServer, waitFor, type TestServer } from '../support/server.js';

/** Opens a raw connection; resolves once connected. */
const open = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

/**
 * Sends `head`, then the bytes of `dribble` one at a time, each after the previous was written and
 * `gapMs` passed, until the server closes the connection. Resolves with what the server answered
 * and how many of the dribbled bytes it got to send.
 */
function dribble(port: number, head: string, dribbled: string, gapMs: number): Promise<{ answer: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    socket.on('error', () => undefined); // a reset after the 408 is the cut we wait for
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, sent });
    });
    const next = (): void => {
      if (socket.destroyed) return;
      if (sent === dribbled.length) return reject(new Error('the whole request was sent without being cut off'));
      socket.write(dribbled[sent]!, () => {
        sent += 1;
        timer = setTimeout(next, gapMs);
      });
    };
    socket.on('connect', () => socket.write(head, next));
  });
}

describe('slow clients', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_REQUEST_TIMEOUT_SECONDS: '2', CLINDOC_MAX_CONNECTIONS: '4' });
  });
  afterAll(() => s?.close());

  it('cuts off a body dribbled a byte at a time at the request deadline with 408', async () => {
    const body = JSON.stringify({ transcript: 'x'.repeat(200) });
    const headers = Object.entries(s.headers({ 'content-length': String(body.length) })).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const head = `POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n${headers}\r\n`;
    // 200+ bytes at one per 250 ms would take about a minute; the deadline is 2 s.
    const { answer, sent } = await dribble(s.port, head, body, 250);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length);
  }, 30_000);

  it('cuts off a head dribbled a byte at a time', async () => {
    const { answer, sent } = await dribble(s.port, 'GET /healthz HTTP/1.1\r\n', `Host: 127.0.0.1:${s.port}\r\nX-Slow: ${'a'.repeat(400)}\r\n\r\n`, 250);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(400);
  }, 30_000);

  it('closes connections beyond the cap as they arrive, and answers again when some go', async () => {
    const held = await Promise.all([open(s.port), open(s.port), open(s.port), open(s.port)]);
    // The fifth is closed by the server without an answer.
    const refused = await fetch(`${s.base}/healthz`).then((r) => r.status, (err: Error) => err.name);
    expect(refused).toBe('TypeError');
    for (const socket of held) socket.destroy();
    await waitFor(async () => (await fetch(`${s.base}/healthz`).then((r) => r.status, () => undefined)) === 200 || undefined);
  });
});
