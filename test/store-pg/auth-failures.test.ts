/**
 * Failed-key lockouts shared by a clinic's API instances: two instances (two pools on one
 * PostgreSQL database, each with its own shared throttle) count one guesser together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openCluster, pgUnavailable, type TestCluster } from '../support/pg-cluster.js';
import { migratePg } from '../../main/store/pg/index.js';
import { createPool } from '../../main/store/pg/sql.js';
import { createPgAuthFailures } from '../../main/store/pg/auth-failures.js';
import { createSharedThrottle, type SharedThrottle } from '../../main/services/auth-throttle/shared-throttle.js';
import { waitFor } from '../support/wait.js';

describe.skipIf(pgUnavailable)('failed-key lockouts in PostgreSQL, shared by instances', () => {
  let cluster: TestCluster;
  let url: string;
  const pools: pg.Pool[] = [];
  let clock = 1_000_000;
  const now = (): number => clock;
  const limits = { maxFailures: 5, windowSeconds: 60, lockoutSeconds: 10, maxLockoutSeconds: 40, delayMs: 0 };
  /** One instance's shared throttle on its own pool; `refreshMs` 0 reads other instances' lockouts again behind every check. */
  const instance = (refreshMs = 0): SharedThrottle => {
    const pool = createPool({ url, poolSize: 4 });
    pools.push(pool);
    return createSharedThrottle(createPgAuthFailures(pool, now), limits, now, refreshMs);
  };

  beforeAll(async () => {
    cluster = await openCluster();
    url = await cluster.createDatabase();
    const pool = createPool({ url, poolSize: 2 });
    pools.push(pool);
    await migratePg(pool);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await cluster?.stop();
  });

  it('locks a guesser out after the limit summed over instances, for every instance, doubling in a row', async () => {
    const [a, b] = [instance(), instance()];
    const guesser = ['10.0.0.1', 'acct_x'] as const;
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await (i % 2 ? b : a).failure(...guesser));
    // Three wrong keys on one instance and two on the other: the fifth begins the lockout.
    expect(outcomes.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(outcomes[4]).toEqual({ scope: 'address-account', seconds: 10, accountUnderAttack: false });
    for (const t of [a, b]) expect(await t.check(...guesser)).toEqual({ allowed: false, retryAfterSeconds: 10, scope: 'address-account' });
    // A right key on an instance that counted some of the guesses does not lift a lockout begun elsewhere.
    await b.success(...guesser);
    const { rows } = await pools[0]!.query<{ locked_until: string }>("SELECT locked_until FROM auth_failures WHERE key = $1", ['p:10.0.0.1\nacct_x']);
    expect(Number(rows[0]?.locked_until)).toBe(clock + 10_000);
    // Another address, and the same address for another account, are not locked.
    expect(await a.check('10.0.0.2', 'acct_x')).toEqual({ allowed: true });
    expect(await b.check('10.0.0.1', 'acct_y')).toEqual({ allowed: true });

    // After the lockout, five more wrong keys in a row lock it for twice as long.
    clock += 10_001;
    expect(await b.check(...guesser)).toEqual({ allowed: true });
    for (let i = 0; i < 4; i++) expect(await (i % 2 ? a : b).failure(...guesser)).toBeUndefined();
    expect(await a.failure(...guesser)).toMatchObject({ scope: 'address-account', seconds: 20 });
    expect(await a.check(...guesser)).toMatchObject({ allowed: false, retryAfterSeconds: 20 });
    // The other instance reads the lockouts behind its checks (every check here: refreshMs 0).
    expect(await waitFor(async () => {
      const state = await b.check(...guesser);
      return state.allowed ? undefined : state;
    })).toMatchObject({ allowed: false, retryAfterSeconds: 20 });
  });

  it('counts wrong keys sent at once to both instances without losing one', async () => {
    const [a, b] = [instance(), instance()];
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? b : a).failure('10.0.1.1', `acct_${i % 3}`)));
    // 12 failures from one address over three accounts: 4 per pair (under 5), and the address count is 12.
    expect(results.every((r) => r === undefined)).toBe(true);
    const { rows } = await pools[0]!.query<{ key: string; failures: number }>("SELECT key, failures FROM auth_failures WHERE key LIKE '%10.0.1.1%' ORDER BY key");
    expect(rows).toEqual([
      { key: 'a:10.0.1.1', failures: 12 },
      { key: 'p:10.0.1.1\nacct_0', failures: 4 },
      { key: 'p:10.0.1.1\nacct_1', failures: 4 },
      { key: 'p:10.0.1.1\nacct_2', failures: 4 },
    ]);
    // Thirteen more over further accounts: the address reaches 25 (five times the limit) and is locked everywhere.
    const more = await Promise.all(Array.from({ length: 13 }, (_, i) => (i % 2 ? a : b).failure('10.0.1.1', `acct_more_${i}`)));
    expect(more.filter((r) => r?.scope === 'address')).toHaveLength(1);
    expect(await a.check('10.0.1.1', 'acct_new')).toMatchObject({ allowed: false, scope: 'address' });
  });

  it('does not count, nor lock again, a wrong key an unaware instance sees during a lockout, and obeys it from then on', async () => {
    const [a, unaware] = [instance(), instance(60_000)];
    const guesser = ['10.0.3.1', 'acct_z'] as const;
    expect(await unaware.check(...guesser)).toEqual({ allowed: true }); // its one read, before the lockout
    for (let i = 0; i < 4; i++) await a.failure(...guesser);
    expect(await a.failure(...guesser)).toMatchObject({ scope: 'address-account', seconds: 10 });
    // The unaware instance lets the next guess reach the key check; the guess is not a second lockout.
    expect(await unaware.check(...guesser)).toEqual({ allowed: true });
    expect(await unaware.failure(...guesser)).toBeUndefined();
    expect(await unaware.check(...guesser)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
    // Even as many as the limit (from unaware instances, in a burst) neither count nor lock again.
    for (let i = 0; i < 5; i++) expect(await instance(60_000).failure(...guesser)).toBeUndefined();
    const { rows } = await pools[0]!.query<{ failures: number; lockouts: number; locked_until: string }>(
      'SELECT failures, lockouts, locked_until FROM auth_failures WHERE key = $1', ['p:10.0.3.1\nacct_z'],
    );
    expect(rows.map((r) => [r.failures, r.lockouts, Number(r.locked_until)])).toEqual([[0, 1, clock + 10_000]]);
  });

  it('forgets what an instance counted once the right key comes, and reads others\' lockouts on its refresh', async () => {
    const a = instance();
    const slow = instance(500);
    const owner = ['10.0.2.1', 'acct_owner'] as const;
    expect(await slow.check(...owner)).toEqual({ allowed: true }); // its one read of the lockouts
    for (let i = 0; i < 4; i++) await a.failure(...owner);
    await a.success(...owner);
    // The count began again: four more wrong keys lock nothing.
    for (let i = 0; i < 4; i++) expect(await a.failure(...owner)).toBeUndefined();
    expect(await a.failure(...owner)).toMatchObject({ scope: 'address-account' });
    // An instance that read the lockouts before learns of this one at its next refresh, half a second on.
    expect(await slow.check(...owner)).toEqual({ allowed: true });
    clock += 1_000;
    const seen = await waitFor(async () => {
      const state = await slow.check(...owner);
      return state.allowed ? undefined : state;
    });
    expect(seen).toMatchObject({ allowed: false, scope: 'address-account', retryAfterSeconds: 9 });
  });
});
