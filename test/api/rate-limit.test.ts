import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { rateLimit } from '../../main/server/middleware/rate-limit.js';
import { errorHandler } from '../../main/server/middleware/error-handler.js';
import type { RateWindows } from '../../main/services/rate-windows.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A one-route app behind the limiter, with a clock the test moves; the client names its key in X-Who. */
async function limited(options: { limit: number; windowSeconds: number; windows?: RateWindows }): Promise<{ clock: { t: number }; get: (who: string) => Promise<Response> }> {
  const clock = { t: 1_000_000 };
  const app = express();
  app.use(rateLimit({ ...options, keyOf: (req) => req.get('x-who') ?? 'anonymous', now: () => clock.t }));
  app.get('/thing', (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler(pino({ level: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { clock, get: (who) => fetch(`${base}/thing`, { headers: { 'x-who': who } }) };
}

const headers = (res: Response) => ({
  status: res.status,
  limit: res.headers.get('x-ratelimit-limit'),
  remaining: res.headers.get('x-ratelimit-remaining'),
  reset: res.headers.get('x-ratelimit-reset'),
  retryAfter: res.headers.get('retry-after'),
});

describe('rate limit in memory (the default)', () => {
  it('counts a fixed window per key, answers 429 with Retry-After until it ends, then starts a new one', async () => {
    const { clock, get } = await limited({ limit: 3, windowSeconds: 60 });
    expect(headers(await get('a'))).toEqual({ status: 200, limit: '3', remaining: '2', reset: '60', retryAfter: null });
    clock.t += 20_500;
    expect(headers(await get('a'))).toEqual({ status: 200, limit: '3', remaining: '1', reset: '40', retryAfter: null });
    expect(headers(await get('a'))).toEqual({ status: 200, limit: '3', remaining: '0', reset: '40', retryAfter: null });
    const refused = await get('a');
    expect(headers(refused)).toEqual({ status: 429, limit: '3', remaining: '0', reset: '40', retryAfter: '40' });
    expect(await refused.json()).toEqual({ error: 429, message: expect.any(String) });
    // Another key has its own window.
    expect(headers(await get('b'))).toMatchObject({ status: 200, remaining: '2', reset: '60' });
    // The last second of the window still says 1, never 0.
    clock.t += 39_400;
    expect(headers(await get('a'))).toMatchObject({ status: 429, reset: '1', retryAfter: '1' });
    clock.t += 100; // 60 s after the window opened
    expect(headers(await get('a'))).toEqual({ status: 200, limit: '3', remaining: '2', reset: '60', retryAfter: null });
  });

  it('fails the request when the counters cannot be read instead of letting it through uncounted', async () => {
    const { get } = await limited({ limit: 3, windowSeconds: 60, windows: { hit: () => Promise.reject(new Error('connection refused')) } });
    const res = await get('a');
    expect(res.status).toBe(500);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await res.json()).toEqual({ error: 500, message: 'internal error' });
  });
});
