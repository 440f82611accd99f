import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Request, Response } from 'express';
import { request } from 'node:http';
import WebSocket from 'ws';
import { createAuthThrottle } from '../../main/services/auth-throttle/auth-throttle.js';
import { authenticateRequests, throttledAuthenticate } from '../../main/server/middleware/auth-throttle.js';
import { DomainError } from '../../main/services/errors.js';
import type { Principal } from '../../main/services/accounts/account-service.js';
import { startServer, type TestServer } from '../support/server.js';

/** A REST call from a chosen loopback source address (Linux answers all of 127/8), so one test plays several clients. */
function call(s: TestServer, from: string, path: string, creds: { accountId: string; apiKey: string }): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, localAddress: from, headers: { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs the authentication middleware on `req` with a fresh response; `next` is what it calls to let the request on. */
async function authenticate(middleware: ReturnType<typeof authenticateRequests>, req: Request, next: () => void): Promise<void> {
  await middleware(req, { locals: {} } as unknown as Response, next);
}

/** One streaming attempt from `from`: the messages received and the close code. */
function streamAttempt(s: TestServer, from: string, query: string): Promise<{ closeCode: number; messages: string[] }> {
  return new Promise((resolve) => {
    const messages: string[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?${query}`, { localAddress: from });
    ws.on('message', (d) => messages.push(String(d)));
    ws.on('close', (code) => resolve({ closeCode: code, messages }));
    ws.on('error', () => undefined);
  });
}

describe('guesses sent side by side, while the key store answers late (a networked database)', () => {
  const slowly = async <T>(answer: () => T): Promise<T> => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return answer();
  };
  const attempt = { address: '10.0.0.9', accountId: 'acct_a', presented: true, requestId: null };

  it('get no more tries than guesses sent one after another: the rest are refused as locked out unchecked', async () => {
    const throttle = createAuthThrottle({ maxFailures: 5, delayMs: 0 });
    const lockouts: unknown[] = [];
    let checked = 0;
    const wrongKey = (): Promise<Principal> => slowly(() => {
      checked++;
      throw new DomainError('unauthorized', 'invalid API key or account id');
    });
    const results = await Promise.all(Array.from({ length: 30 }, () => throttledAuthenticate({ throttle, onLockout: (e) => void lockouts.push(e) }, attempt, wrongKey)));
    expect(checked).toBe(5);
    expect(results.filter((r) => r.error?.kind === 'unauthorized')).toHaveLength(5);
    expect(results.filter((r) => r.error?.kind === 'rate_limited')).toHaveLength(25);
    expect(lockouts).toHaveLength(1);
  });

  it('let the owner\'s many requests at once through, each with its principal', async () => {
    const throttle = createAuthThrottle({ maxFailures: 5, delayMs: 0 });
    const rightKey = (): Promise<Principal> => slowly(() => ({ accountId: 'acct_a', keyId: 'key_1' }));
    const results = await Promise.all(Array.from({ length: 30 }, () => throttledAuthenticate({ throttle, onLockout: () => undefined }, attempt, rightKey)));
    expect(results.every((r) => r.principal?.keyId === 'key_1')).toBe(true);
  });
});

describe('the throttle policy (pure, injected clock)', () => {
  it('slows the third and later wrong keys, then locks out; the lockout expires and doubles next time', () => {
    let t = 1_000_000;
    const throttle = createAuthThrottle({ maxFailures: 5, lockoutSeconds: 60, maxLockoutSeconds: 200, delayMs: 100, windowSeconds: 900 }, () => t);
    const delays = [1, 2, 3, 4].map(() => throttle.failure('10.0.0.1', 'acct_a').delayMs);
    expect(delays).toEqual([0, 0, 100, 200]);
    expect(throttle.check('10.0.0.1', 'acct_a').allowed).toBe(true);
    const fifth = throttle.failure('10.0.0.1', 'acct_a');
    expect(fifth.lockout).toEqual({ scope: 'address-account', seconds: 60, accountUnderAttack: false });
    expect(throttle.check('10.0.0.1', 'acct_a')).toEqual({ allowed: false, retryAfterSeconds: 60, scope: 'address-account' });
    // Another address, or another account from the same address, is not affected.
    expect(throttle.check('10.0.0.2', 'acct_a').allowed).toBe(true);
    expect(throttle.check('10.0.0.1', 'acct_b').allowed).toBe(true);
    t += 59_500;
    expect(throttle.check('10.0.0.1', 'acct_a')).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    t += 500;
    expect(throttle.check('10.0.0.1', 'acct_a').allowed).toBe(true);
    for (let i = 0; i < 4; i++) expect(throttle.failure('10.0.0.1', 'acct_a').lockout).toBeUndefined();
    expect(throttle.failure('10.0.0.1', 'acct_a').lockout?.seconds).toBe(120);
    t += 120_000;
    for (let i = 0; i < 4; i++) throttle.failure('10.0.0.1', 'acct_a');
    expect(throttle.failure('10.0.0.1', 'acct_a').lockout?.seconds).toBe(200); // capped
    // A quiet window forgives: the next lockout is the short one again.
    t += 200_000 + 900_000;
    for (let i = 0; i < 4; i++) throttle.failure('10.0.0.1', 'acct_a');
    expect(throttle.failure('10.0.0.1', 'acct_a').lockout?.seconds).toBe(60);
  });

  it('a right key clears that client\'s count; failures older than the window are forgotten', () => {
    let t = 0;
    const throttle = createAuthThrottle({ maxFailures: 3, windowSeconds: 60 }, () => t);
    throttle.failure('a', 'acct');
    throttle.failure('a', 'acct');
    throttle.success('a', 'acct');
    throttle.failure('a', 'acct');
    expect(throttle.failure('a', 'acct').lockout).toBeUndefined();
    t += 61_000;
    throttle.failure('a', 'acct');
    expect(throttle.failure('a', 'acct').lockout).toBeUndefined();
    expect(throttle.failure('a', 'acct').lockout).toBeDefined();
  });

  it('locks an address that rotates account ids, and locks every failing address of an account under attack but not a clean one', () => {
    const throttle = createAuthThrottle({ maxFailures: 2 });
    for (let i = 0; i < 9; i++) expect(throttle.failure('rotating', `acct_${i}`).lockout).toBeUndefined();
    expect(throttle.failure('rotating', 'acct_9').lockout?.scope).toBe('address');
    expect(throttle.check('rotating', 'acct_never_tried')).toMatchObject({ allowed: false, scope: 'address' });

    // 21 failures for one account from 21 addresses, one each: past 10 x maxFailures the account is under attack.
    for (let i = 0; i < 20; i++) expect(throttle.failure(`bot${i}`, 'acct_victim').lockout).toBeUndefined();
    expect(throttle.failure('bot20', 'acct_victim').lockout).toMatchObject({ scope: 'address-account', accountUnderAttack: true });
    expect(throttle.check('bot20', 'acct_victim').allowed).toBe(false);
    expect(throttle.check('owner', 'acct_victim').allowed).toBe(true);
  });

  it('keeps memory bounded against endless invented clients: the oldest are forgotten, the latest still counted', () => {
    const throttle = createAuthThrottle({ maxFailures: 3 });
    const client = (i: number): [string, string] => [`10.1.${i >> 8}.${i & 255}`, `acct_${i}`];
    for (let i = 0; i < 30_000; i++) throttle.failure(...client(i));
    throttle.failure(...client(29_999));
    expect(throttle.failure(...client(29_999)).lockout).toBeDefined();
    throttle.failure(...client(0));
    expect(throttle.failure(...client(0)).lockout).toBeUndefined();
  });
});

describe('failed authentication over HTTP and the streaming socket', () => {
  let s: TestServer;
  let now = Date.now();
  const guesses = Array.from({ length: 200 }, (_, i) => `cdk_guess${String(i).padStart(4, '0')}ZZ${'q'.repeat(30)}`);
  beforeAll(async () => {
    s = await startServer({ CLINDOC_AUTH_DELAY_MS: '0', CLINDOC_RATE_LIMIT: '100000' }, { throttleClock: () => now });
  });
  afterAll(() => s.close());

  it('answers 200 wrong keys from one address with 401 up to the threshold, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (const apiKey of guesses) {
      last = await call(s, '127.0.0.1', '/v1/notes', { accountId: s.creds.accountId, apiKey });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(190).fill(429));
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last!.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(last!.body)).toEqual({ error: 429, message: expect.stringMatching(/too many failed authentication attempts; retry after \d+ seconds/) });
    // The key is not even checked while locked out: the right key from the locked address is refused too.
    expect((await call(s, '127.0.0.1', '/v1/notes', s.creds)).status).toBe(429);
  });

  it('still lets the right key in from another client, and another account in from the same address', async () => {
    expect((await call(s, '127.0.0.2', '/v1/notes', s.creds)).status).toBe(200);
    const other = await s.clindoc.accounts.createAccount('Second clinic');
    expect((await call(s, '127.0.0.1', '/v1/notes', { accountId: other.account.id, apiKey: other.apiKey })).status).toBe(200);
  });

  it('refuses the locked client on the streaming socket too, with an error message and close 1008', async () => {
    const attempt = await streamAttempt(s, '127.0.0.1', `account_id=${s.creds.accountId}&api_token=cdt_whatever`);
    expect(attempt.closeCode).toBe(1008);
    expect(attempt.messages.join('')).toMatch(/retry after \d+ seconds/);
  });

  it('records the lockout in the owner\'s audit trail, never the keys tried', async () => {
    const trail = await call(s, '127.0.0.2', '/v1/audit-events', s.creds);
    const events = JSON.parse(trail.body).data.items as Array<Record<string, unknown>>;
    const lockouts = events.filter((e) => e.action === 'authenticate');
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ outcome: 'locked', resourceType: 'account', accountId: s.creds.accountId, keyId: null, status: 429 });
    expect(String(lockouts[0]!.ip)).toMatch(/127\.0\.0\.1$/);
    for (const guess of [guesses[0]!, guesses[9]!, guesses[150]!]) {
      expect(await s.storedContaining(guess)).toEqual([]);
      expect(s.logs.join('\n')).not.toContain(guess);
    }
    expect(await s.storedContaining('guess0')).toEqual([]);
  });

  it('ends the lockout when its time has passed (clock moved, nobody sleeps), and doubles the next one', async () => {
    now += 61_000;
    expect((await call(s, '127.0.0.1', '/v1/notes', s.creds)).status).toBe(200);
    for (let i = 0; i < 10; i++) await call(s, '127.0.0.1', '/v1/notes', { accountId: s.creds.accountId, apiKey: guesses[i]! });
    // The right key cleared the count, so this is a first lockout again.
    const locked = await call(s, '127.0.0.1', '/v1/notes', s.creds);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBe(60);
    now += 60_000;
    for (let i = 0; i < 10; i++) await call(s, '127.0.0.1', '/v1/notes', { accountId: s.creds.accountId, apiKey: guesses[i]! });
    expect(Number((await call(s, '127.0.0.1', '/v1/notes', s.creds)).headers['retry-after'])).toBe(120);
  });

  it('counts wrong streaming tokens like wrong keys: the same client is then refused on REST', async () => {
    for (let i = 0; i < 10; i++) {
      const attempt = await streamAttempt(s, '127.0.0.3', `account_id=${s.creds.accountId}&api_token=cdt_wrong${i}`);
      expect(attempt.closeCode).toBe(1008);
    }
    expect((await call(s, '127.0.0.3', '/v1/notes', s.creds)).status).toBe(429);
    expect((await call(s, '127.0.0.4', '/v1/notes', s.creds)).status).toBe(200);
  });
});

describe('slowing before the lockout', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_AUTH_DELAY_MS: '150' });
  });
  afterAll(() => s.close());

  it('answers later wrong keys after the second (lower bounds: a busy machine only adds to them)', async () => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      expect((await call(s, '127.0.0.5', '/v1/notes', { accountId: s.creds.accountId, apiKey: `cdk_slow${i}` })).status).toBe(401);
      times.push(performance.now() - started);
    }
    expect(times[2]).toBeGreaterThanOrEqual(145);
    expect(times[3]).toBeGreaterThanOrEqual(295);
    expect(times[4]).toBeGreaterThanOrEqual(595);
    expect((await call(s, '127.0.0.5', '/v1/notes', s.creds)).status).toBe(200);
  });
});

describe('the hold-back, counted on a stopped clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('holds the third, fourth and fifth wrong keys 150, 300 and 600 ms, and the same client\'s right key not at all', async () => {
    vi.useFakeTimers();
    const middleware = authenticateRequests({
      throttle: createAuthThrottle({ delayMs: 150 }),
      onLockout: () => undefined,
      authenticate: async (apiKey) => {
        if (apiKey === 'cdk_right') return { accountId: 'acct_a', keyId: 'key_1' };
        throw new DomainError('unauthorized', 'invalid API key or account id');
      },
    });
    /** How many milliseconds of the stopped clock pass before the request goes on (the middleware calls next). */
    const heldFor = async (apiKey: string): Promise<number> => {
      let passed = false;
      const headers: Record<string, string> = { 'X-API-KEY': apiKey, 'X-ACCOUNT-ID': 'acct_a' };
      const req = { get: (name: string) => headers[name], ip: '10.0.0.5' } as unknown as Request;
      await authenticate(middleware, req, () => (passed = true));
      let held = 0;
      for (; !passed && held < 10_000; held++) await vi.advanceTimersByTimeAsync(1);
      return held;
    };
    const holds = [];
    for (let i = 0; i < 5; i++) holds.push(await heldFor(`cdk_wrong${i}`));
    expect(holds).toEqual([0, 0, 150, 300, 600]);
    expect(await heldFor('cdk_right')).toBe(0);
    // The right key cleared the count: the next wrong key is a first one again.
    expect(await heldFor('cdk_wrong5')).toBe(0);
  });
});
