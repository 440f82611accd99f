/**
 * First run: `npm run serve` prints a one-click sign-in link whose token (never the key) the page
 * trades once for the local credentials; nothing but the app's own page can trade it; `clindoc
 * credentials` shows the id and key again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { ROOT, freePort, runCli, startHeadless } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { createSignInLinks } from '../../main/services/accounts/sign-in-links.js';

const tokenOf = (link: string): string => new URL(link).hash.replace(/^#token=/, '');

describe('one-click sign-in', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'https://ehr.example.org' });
  });
  afterAll(() => s?.close());

  const exchange = (token: string, headers: Record<string, string> = {}) =>
    fetch(`${s.base}/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ token }) });

  it('trades a token for the local credentials once, from the app\'s own page', async () => {
    const token = tokenOf(s.clindoc.signInLink());
    const res = await exchange(token, { origin: s.base, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await res.json()).data).toEqual(s.creds);
    const again = await exchange(token, { origin: s.base });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ error: 401, message: expect.stringMatching(/expired or was already used/) });
  });

  it('refuses any other web page, even an origin allowed to call the API, and burns nothing for it', async () => {
    const token = tokenOf(s.clindoc.signInLink());
    expect((await exchange(token, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await exchange(token, { origin: 'https://ehr.example.org' })).status).toBe(403);
    expect((await exchange(token, { origin: s.base, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // A form post (no JSON) is refused before anything is read.
    const form = await fetch(`${s.base}/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}` });
    expect(form.status).toBe(415);
    // Refusals above happened before the exchange, so the physician's own click still works.
    expect((await exchange(token, { origin: s.base })).status).toBe(200);
  });

  it('answers 401 to a made-up token', async () => {
    expect((await exchange('cds_madeup', { origin: s.base })).status).toBe(401);
  });

  it('refuses a request without an Origin header (a script, not the page), and burns nothing for it', async () => {
    const token = tokenOf(s.clindoc.signInLink());
    const bare = await exchange(token);
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ error: 403, message: 'sign-in links work only in the Clindoc page itself' });
    expect((await exchange(token, { origin: s.base })).status).toBe(200);
  });
});

describe('sign-in links', () => {
  const creds = { accountId: 'acct_1', apiKey: 'cdk_1' };
  it('expire after ten minutes', async () => {
    let now = 1_000_000;
    const links = createSignInLinks({ credentials: () => creds, valid: async () => true, now: () => now });
    const { token, expiresAt } = links.issue();
    expect(expiresAt).toBe(now + 10 * 60 * 1000);
    now = expiresAt;
    await expect(links.exchange(token)).rejects.toThrow(/expired/);
  });

  it('say so when the stored key was revoked, and need a local account', async () => {
    const revoked = createSignInLinks({ credentials: () => creds, valid: async () => false });
    await expect(revoked.exchange(revoked.issue().token)).rejects.toThrow(/no longer work/);
    expect(() => createSignInLinks({ credentials: () => undefined, valid: async () => true }).issue()).toThrow(/no local account/);
  });
});

describe('first run from the command line', () => {
  let child: ChildProcess | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-first-run-'));
  const logged = mkdtempSync(join(tmpdir(), 'clindoc-first-run-logged-'));
  afterAll(() => {
    if (child?.pid) process.kill(-child.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logged, { recursive: true, force: true });
  });

  // The desktop's first run: a clinic server (PostgreSQL) makes no local account to print or link;
  // its accounts come from `clindoc accounts create`.
  it.skipIf(onPostgres)('npm run serve in a terminal prints the pasteable lines and a working sign-in link; clindoc credentials shows them again', async () => {
    const port = await freePort();
    // util-linux `script` runs the server on a pseudo-terminal, as a person starting it would.
    const command = `${process.execPath} --import tsx ${join(ROOT, 'main', 'headless.ts')}`;
    child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CLINDOC_LOG_LEVEL: 'info', CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir },
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const out = await waitFor(async () => (/#token=/.test(output) ? output : undefined), 60_000);
    const link = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(out)?.[0];
    expect(link).toBeDefined();
    expect(new URL(link!).port).toBe(String(port));
    const stored = JSON.parse(readFileSync(join(dataDir, 'local-credentials.json'), 'utf8')) as { accountId: string; apiKey: string };
    expect(out).toContain(`X-ACCOUNT-ID: ${stored.accountId}`);
    expect(out).toContain(`X-API-KEY: ${stored.apiKey}`);
    expect(link).not.toContain(stored.apiKey);
    const res = await fetch(`http://127.0.0.1:${port}/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` }, body: JSON.stringify({ token: tokenOf(link!) }) });
    expect((await res.json()).data).toEqual(stored);

    const shown = await runCli(['credentials'], { CLINDOC_DATA_DIR: dataDir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`X-ACCOUNT-ID: ${stored.accountId}\nX-API-KEY: ${stored.apiKey}\n`);
    expect(JSON.parse((await runCli(['credentials', '--json'], { CLINDOC_DATA_DIR: dataDir })).stdout)).toEqual(stored);
  }, 90_000);

  it.skipIf(onPostgres)('under a service manager or with output to a log (no terminal) writes neither the key nor a sign-in link, only where the key is', async () => {
    const port = await freePort();
    const started = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: logged });
    try {
      await waitFor(() => (started.output().includes('Clindoc local API on') ? true : undefined));
      const { apiKey } = started.credentials();
      expect(started.output()).not.toContain(apiKey);
      expect(started.output()).not.toMatch(/#token=|cds_/);
      expect(started.output()).toContain(`its id and key are in ${join(logged, 'local-credentials.json')} (owner-only)`);
      expect(statSync(join(logged, 'local-credentials.json')).mode & 0o777).toBe(0o600);
    } finally {
      started.child.kill('SIGTERM');
      await new Promise((resolve) => started.child.once('exit', resolve));
    }
  }, 90_000);

  it('clindoc credentials says where they would be when there are none', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'clindoc-no-creds-'));
    const shown = await runCli(['credentials'], { CLINDOC_DATA_DIR: empty });
    rmSync(empty, { recursive: true, force: true });
    expect(shown.code).not.toBe(0);
    expect(shown.stderr).toMatch(/no local credentials in .*local-credentials\.json/);
  });
});
