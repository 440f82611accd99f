import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { openCluster, pgUnavailable, type TestCluster } from '../support/pg-cluster.js';
import { migratePg } from '../../main/store/pg/index.js';
import { createPgRateWindows } from '../../main/store/pg/rate-windows.js';
import { loadConfig } from '../../main/config.js';
import { createClindoc, type Clindoc } from '../../main/composition.js';

const silent = new Writable({ write: (_c, _e, done) => done() });

describe.skipIf(pgUnavailable)('shared rate limits', () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await openCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  describe('rate-limit windows in PostgreSQL', () => {
    let url: string;
    const pools: pg.Pool[] = [];
    const pool = (): pg.Pool => {
      const p = new pg.Pool({ connectionString: url, max: 4 });
      // A connection still closing when the cluster drops the database reports its end as an error: not this test's concern.
      p.on('error', () => undefined);
      pools.push(p);
      return p;
    };
    beforeAll(async () => {
      url = await cluster.createDatabase();
      await migratePg(pool());
    });
    afterAll(async () => {
      await Promise.all(pools.map((p) => p.end()));
    });

    it('opens a window at the first request, counts until its end, then opens the next', async () => {
      const windows = createPgRateWindows(pool());
      expect(await windows.hit('acct-1', 60_000, 1_000)).toEqual({ count: 1, resetAt: 61_000 });
      expect(await windows.hit('acct-1', 60_000, 60_999)).toEqual({ count: 2, resetAt: 61_000 });
      expect(await windows.hit('acct-2', 60_000, 60_999)).toEqual({ count: 1, resetAt: 120_999 });
      expect(await windows.hit('acct-1', 60_000, 61_000)).toEqual({ count: 1, resetAt: 121_000 });
    });

    it('counts every request exactly once when instances hit one key at the same moment', async () => {
      const a = createPgRateWindows(pool());
      const b = createPgRateWindows(pool());
      const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).hit('burst', 60_000, 5_000)));
      expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect(new Set(counts.map((c) => c.resetAt))).toEqual(new Set([65_000]));
    });

    it('deletes windows that ended, at most once per window length', async () => {
      const p = pool();
      const windows = createPgRateWindows(p);
      const keys = async (): Promise<string[]> => (await p.query<{ key: string }>("SELECT key FROM rate_windows WHERE key LIKE 'sweep-%' ORDER BY key")).rows.map((r) => r.key);
      await windows.hit('sweep-old', 10_000, 1_000_000);
      await windows.hit('sweep-new', 10_000, 1_005_000);
      expect(await keys()).toEqual(['sweep-new', 'sweep-old']);
      // 1_011_000: sweep-old ended at 1_011_000; the last sweep ran at 1_000_000, more than a window ago.
      await windows.hit('sweep-other', 10_000, 1_011_000);
      expect(await keys()).toEqual(['sweep-new', 'sweep-other']);
    });
  });

  describe('two API instances on one database', () => {
    let root: string;
    let a: Clindoc;
    let b: Clindoc;
    let bases: [string, string];
    let creds: { accountId: string; apiKey: string };
    beforeAll(async () => {
      const url = await cluster.createDatabase();
      root = mkdtempSync(join(tmpdir(), 'clindoc-rate-'));
      const shared = join(root, 'shared');
      mkdirSync(shared);
      const key = randomBytes(32).toString('hex');
      const start = async (name: string, createLocalAccount: boolean): Promise<[Clindoc, string]> => {
        const dataDir = join(root, name);
        const env = {
          CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_DATABASE_URL: url, CLINDOC_ENCRYPTION_KEY: key, CLINDOC_SHARED_DIR: shared,
          CLINDOC_ROLE: 'api', CLINDOC_RATE_LIMIT: '5', CLINDOC_RATE_WINDOW_SECONDS: '60', CLINDOC_JOB_CONCURRENCY: '0',
        };
        const app = await createClindoc(loadConfig(env, dataDir), { logDestination: silent as never, createLocalAccount });
        return [app, `http://127.0.0.1:${await app.listen()}`];
      };
      let baseA: string;
      let baseB: string;
      [a, baseA] = await start('a', true);
      [b, baseB] = await start('b', false);
      bases = [baseA, baseB];
      creds = a.localCredentials!;
    }, 120_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      rmSync(root, { recursive: true, force: true });
    });

    const get = (i: number, who: { accountId: string; apiKey: string }) =>
      fetch(`${bases[i % 2]}/v1/notes`, { headers: { 'X-API-KEY': who.apiKey, 'X-ACCOUNT-ID': who.accountId } });

    it('share one window per account: requests spread over both count together, and the 429 says how long to wait', async () => {
      const seen: Array<{ status: number; remaining: string | null; limit: string | null; reset: number }> = [];
      let refused: Response | undefined;
      for (let i = 0; i < 7; i++) {
        const res = await get(i, creds);
        seen.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining'), limit: res.headers.get('x-ratelimit-limit'), reset: Number(res.headers.get('x-ratelimit-reset')) });
        if (res.status === 429) refused ??= res;
        await res.arrayBuffer();
      }
      expect(seen.map((s) => [s.status, s.remaining, s.limit])).toEqual([
        [200, '4', '5'], [200, '3', '5'], [200, '2', '5'], [200, '1', '5'], [200, '0', '5'], [429, '0', '5'], [429, '0', '5'],
      ]);
      for (const s of seen) {
        expect(s.reset).toBeGreaterThanOrEqual(55);
        expect(s.reset).toBeLessThanOrEqual(60);
      }
      expect(Number(refused!.headers.get('retry-after'))).toBe(seen[5]!.reset);

      // Another account still has its whole window, on either instance.
      const other = await a.accounts.createAccount('Second');
      const res = await get(1, { accountId: other.account.id, apiKey: other.apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
    });

    it('let exactly the limit through when a burst is sent to both instances at once', async () => {
      const third = await a.accounts.createAccount('Third');
      const who = { accountId: third.account.id, apiKey: third.apiKey };
      const statuses = await Promise.all(Array.from({ length: 14 }, async (_, i) => {
        const res = await get(i, who);
        await res.arrayBuffer();
        return res.status;
      }));
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    });
  });
});
