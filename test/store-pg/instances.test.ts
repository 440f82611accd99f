import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPostgresStores, PG_MIGRATIONS, migratePg, PgStoreError, type PostgresStores } from '../../main/store/pg/index.js';
import { createPool } from '../../main/store/pg/sql.js';
import { openProtection } from '../store-contract/backend.js';
import { openCluster, pgUnavailable, type TestCluster } from '../support/pg-cluster.js';

/** What only a shared database has: several instances on it at once, and the server's own failures. */
describe.skipIf(pgUnavailable !== null)('PostgreSQL stores shared by several instances', () => {
  let cluster: TestCluster;
  const protection = openProtection();
  const opened: PostgresStores[] = [];
  const open = async (url: string, poolSize = 6): Promise<PostgresStores> => {
    const stores = await openPostgresStores({ url, cipher: protection.cipher, blobs: protection.blobs, poolSize });
    opened.push(stores);
    return stores;
  };
  const query = async <R extends object>(url: string, text: string): Promise<R[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(text)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    cluster = await openCluster();
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await cluster?.stop();
    protection.remove();
  });

  it('migrates once when several instances start on an empty database together', async () => {
    const url = await cluster.createDatabase();
    const instances = await Promise.all(Array.from({ length: 4 }, () => open(url, 2)));
    const versions = await query<{ version: number }>(url, 'SELECT version FROM clindoc_schema_migrations ORDER BY version');
    expect(versions.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((_, i) => i + 1));
    // All four work on the one schema.
    await instances[0]!.accounts.createAccount({ id: 'acct_1', name: 'Clinic', createdAt: 1 });
    expect(await instances[3]!.accounts.countAccounts()).toBe(1);
    // Opening again applies nothing.
    await open(url, 1);
    expect(await query(url, 'SELECT version FROM clindoc_schema_migrations')).toHaveLength(PG_MIGRATIONS.length);
  });

  it('rolls a failed migration back whole and refuses a schema newer than the code', async () => {
    const url = await cluster.createDatabase();
    const pool = createPool({ url, poolSize: 2 });
    try {
      await expect(migratePg(pool, ['CREATE TABLE one (x INTEGER)', 'CREATE TABLE two (x INTEGER); SELECT no_such_function()'])).rejects.toBeInstanceOf(PgStoreError);
      expect(await query<{ version: number }>(url, 'SELECT version FROM clindoc_schema_migrations')).toEqual([{ version: 1 }]);
      expect(await query(url, `SELECT 1 FROM pg_tables WHERE tablename = 'two'`)).toEqual([]);
      expect(await migratePg(pool, ['CREATE TABLE one (x INTEGER)', 'CREATE TABLE two (x INTEGER)'])).toBe(2);
      await expect(migratePg(pool, ['CREATE TABLE one (x INTEGER)'])).rejects.toThrow(/newer than this Clindoc knows/);
    } finally {
      await pool.end();
    }
  });

  it('gives each job to one instance when two claim at once', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    const total = 40;
    for (let i = 0; i < total; i++) await a.jobs.enqueue({ id: `job_${i}`, kind: 'note_generation', accountId: 'acct', resourceId: `n${i}`, runAfter: 0 });
    // Both instances drain the queue with several claims in flight each, as job runners with concurrency do.
    const drain = async (stores: PostgresStores): Promise<string[]> => {
      const got: string[] = [];
      const worker = async (): Promise<void> => {
        for (let job = await stores.jobs.claim(Date.now()); job; job = await stores.jobs.claim(Date.now())) got.push(job.id);
      };
      await Promise.all([worker(), worker(), worker()]);
      return got;
    };
    const [fromA, fromB] = await Promise.all([drain(a), drain(b)]);
    const all = [...fromA, ...fromB];
    expect(all).toHaveLength(total);
    expect(new Set(all).size).toBe(total);
    expect(await query(url, `SELECT id FROM jobs WHERE attempts <> 1 OR status <> 'running'`)).toEqual([]);
  });

  it('gives each due delivery to one instance when two claim at once', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    for (let i = 0; i < 30; i++) {
      await a.webhooks.insertDelivery({
        id: `d_${i}`, accountId: 'acct', webhookId: null, url: 'https://example.test/h', secret: 's', event: 'note.completed', resourceId: 'r',
        status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: i,
      });
    }
    const batches = await Promise.all([a, b, a, b, a, b].map((s) => s.webhooks.claimDue(Date.now(), 7)));
    const ids = batches.flat().map((d) => d.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('takes back only the work of an instance that is gone', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    await a.jobs.enqueue({ id: 'job_a', kind: 'note_generation', accountId: 'acct', resourceId: 'n1', runAfter: 0 });
    await a.jobs.enqueue({ id: 'job_b', kind: 'note_generation', accountId: 'acct', resourceId: 'n2', runAfter: 1 });
    expect((await a.jobs.claim(Date.now()))?.id).toBe('job_a');
    expect((await b.jobs.claim(Date.now()))?.id).toBe('job_b');
    for (const i of [1, 2]) {
      await a.webhooks.insertDelivery({
        id: `d_${i}`, accountId: 'acct', webhookId: null, url: 'https://example.test/h', secret: 's', event: 'note.completed', resourceId: 'r',
        status: 'pending', attempts: 0, nextAttemptAt: i, createdAt: i,
      });
    }
    expect((await a.webhooks.claimDue(Date.now(), 1)).map((d) => d.id)).toEqual(['d_1']);
    expect((await b.webhooks.claimDue(Date.now(), 1)).map((d) => d.id)).toEqual(['d_2']);
    // A third instance starting while both run takes nothing back: nothing is done twice.
    const c = await open(url);
    expect(await c.jobs.recoverInterrupted()).toBe(0);
    expect(await c.webhooks.recoverInterrupted()).toBe(0);
    // Instance a goes away (its lease ends with its connections): only its claims return.
    await a.close();
    expect(await c.jobs.recoverInterrupted()).toBe(1);
    expect(await c.webhooks.recoverInterrupted()).toBe(1);
    expect((await c.jobs.get('job_a'))?.status).toBe('queued');
    expect((await c.jobs.get('job_b'))?.status).toBe('running');
    expect((await c.webhooks.listDeliveries('acct')).map((d) => [d.id, d.status])).toEqual([['d_1', 'pending'], ['d_2', 'delivering']]);
    expect((await c.jobs.claim(Date.now()))?.id).toBe('job_a');
  });

  it('takes over at once an Idempotency-Key claim whose instance is gone, and never a live one\'s', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = [await open(url), await open(url)];
    await a.accounts.createAccount({ id: 'acct_i', name: 'Clinic', createdAt: 1 });
    const stale = { pending: 0, answered: 0 }; // nothing is stale by age
    expect(await a.idempotency.claim('acct_i', 'k1', { requestHash: 'h', createdAt: 10 }, stale)).toBe(true);
    expect(await b.idempotency.claim('acct_i', 'k1', { requestHash: 'h', createdAt: 11 }, stale)).toBe(false);
    await a.close(); // a's process is gone mid-request
    expect(await b.idempotency.claim('acct_i', 'k1', { requestHash: 'h', createdAt: 12 }, stale)).toBe(true);
    expect((await b.idempotency.get('acct_i', 'k1'))?.createdAt).toBe(12);
  });

  it('holds its lease again after the server drops the lease connection', async () => {
    const url = await cluster.createDatabase();
    const stores = await open(url);
    const name = new URL(url).pathname.slice(1);
    const leases = async (): Promise<number[]> =>
      (await query<{ objid: string }>(url, `SELECT l.objid::text FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted AND d.datname = '${name}'`)).map((r) => Number(r.objid));
    const [id] = await leases();
    expect(id).toBeGreaterThan(0);
    await query(url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'clindoc-instance' AND datname = '${name}'`);
    // Polled, not slept: the lease comes back (same id) after a reconnect delay of about a second.
    const deadline = Date.now() + 15_000;
    let now = await leases();
    while (!(now.length === 1 && now[0] === id) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await leases();
    }
    expect(now).toEqual([id]);
    await stores.jobs.enqueue({ id: 'after', kind: 'k', accountId: 'a', resourceId: 'r', runAfter: 0 });
    expect((await stores.jobs.claim(Date.now()))?.id).toBe('after');
    expect(await stores.jobs.recoverInterrupted()).toBe(0);
  });

  it('reads times as numbers, answers ping, and fails without quoting values', async () => {
    const url = await cluster.createDatabase();
    const stores = await open(url);
    const big = 8_640_000_000_000; // far beyond 32 bits: the year 2243
    await stores.accounts.createAccount({ id: 'acct_secret_value', name: 'Clinic', createdAt: big });
    expect(await stores.accounts.getAccount('acct_secret_value')).toEqual({ id: 'acct_secret_value', name: 'Clinic', createdAt: big, operator: false });
    await expect(stores.ping()).resolves.toBeUndefined();
    const failure = await stores.accounts.createAccount({ id: 'acct_secret_value', name: 'Again', createdAt: 1 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PgStoreError);
    expect((failure as PgStoreError).code).toBe('23505');
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message, stack: (failure as Error).stack })).not.toContain('secret_value');
  });

  it('keeps the trail append-only against TRUNCATE too', async () => {
    const url = await cluster.createDatabase();
    const stores = await open(url);
    await stores.audit.append({
      id: 'ev1', at: 1, accountId: 'acct', keyId: null, actor: 'anonymous', action: 'authenticate', resourceType: 'account', resourceId: null,
      operation: null, ip: null, outcome: 'locked', status: 429, requestId: null,
    });
    await expect(query(url, 'TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect((await stores.audit.list('acct', 10)).items.map((e) => e.id)).toEqual(['ev1']);
  });

  it('writes the rest of a batch of trail events when one of them cannot be stored, in order', async () => {
    const url = await cluster.createDatabase();
    const stores = await open(url);
    const ev = (id: string, at: number) => ({
      id, at, accountId: 'acct', keyId: null, actor: 'api-key', action: 'read' as const, resourceType: 'note' as const, resourceId: null,
      operation: null, ip: null, outcome: 'success' as const, status: 200, requestId: null,
    });
    // The first goes alone; the next three wait for it and are sent together, where the bad time fails that INSERT.
    const results = await Promise.allSettled([ev('a1', 1), ev('a2', 2), ev('bad', Number.NaN), ev('a3', 3)].map((e) => stores.audit.append(e)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((await stores.audit.list('acct', 10)).items.map((e) => e.id)).toEqual(['a3', 'a2', 'a1']);
  });

  it('rejects when the server cannot be reached, and ping rejects after close', async () => {
    const unreachable = new URL(cluster.adminUrl);
    unreachable.port = '1';
    await expect(openPostgresStores({ url: unreachable.toString(), cipher: protection.cipher, blobs: protection.blobs })).rejects.toBeInstanceOf(PgStoreError);
    const url = await cluster.createDatabase();
    const stores = await openPostgresStores({ url, cipher: protection.cipher, blobs: protection.blobs, poolSize: 1 });
    await stores.close();
    await stores.close(); // a second close is harmless
    await expect(stores.ping()).rejects.toBeInstanceOf(PgStoreError);
  });
});
