/**
 * Wrong keys spread over a clinic's API instances (two servers on one PostgreSQL database, as
 * behind a load balancer): the lockout counts them together, and every instance then refuses
 * that client for that account, its right key included, over REST and the dictation socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';

// On SQLite one process answers, and its own throttle is the whole count (auth-throttle.test.ts).
describe.runIf(onPostgres)('failed keys counted across API instances on one database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-throttle-'));
  let first: TestServer;
  let second: TestServer;
  // Slowing is per instance and not what is tested here.
  const env = { CLINDOC_DATA_DIR: dataDir, CLINDOC_AUTH_MAX_FAILURES: '6', CLINDOC_AUTH_DELAY_MS: '0' };

  beforeAll(async () => {
    first = await startServer(env);
    second = await startServer(env);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const notes = (s: TestServer, apiKey: string): Promise<Response> =>
    fetch(`${s.base}/v1/notes`, { headers: { 'X-API-KEY': apiKey, 'X-ACCOUNT-ID': first.creds.accountId } });

  it('locks the client out on both instances after the limit summed over them', async () => {
    // Three wrong keys on each instance: under either one's own limit of six, the sixth in total.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await notes(i % 2 ? second : first, `cdk_wrong_${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    // The instance that counted the sixth refuses at once; the other within its refresh of the lockouts.
    for (const s of [second, first]) {
      const refused = await waitFor(async () => {
        const res = await notes(s, first.creds.apiKey);
        return res.status === 429 ? res : undefined;
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).message).toMatch(/too many failed authentication attempts/);
    }
    // The dictation socket obeys the same lockout.
    const closed = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${first.port}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, {
        headers: { 'X-API-KEY': first.creds.apiKey, 'X-ACCOUNT-ID': first.creds.accountId },
      });
      ws.on('close', (code) => resolve(code));
      ws.on('error', () => undefined);
    });
    expect(closed).toBe(1008);
    // The lockout is in the trail once, whichever instance began it.
    const rows = await waitFor(async () => {
      const found = await first.query<{ operation: string }>("SELECT operation FROM audit_events WHERE action = 'authenticate' AND outcome = 'locked'");
      return found.length > 0 ? found : undefined;
    });
    expect(rows).toEqual([{ operation: 'lockout:address-account:60s' }]);
  });
});
