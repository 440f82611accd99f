/**
 * Which database the integration tests put a server on. `CLINDOC_TEST_DATABASE=postgres` (with
 * CLINDOC_TEST_PG_URL naming a cluster's admin URL, as scripts/test.sh exports it) gives every data
 * folder its own fresh PostgreSQL database, so the same tests run against both backends, as
 * pg-boss runs one suite against several databases. Unset or `sqlite`: SQLite in the data folder.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const chosen = (process.env.CLINDOC_TEST_DATABASE ?? 'sqlite').trim().toLowerCase() || 'sqlite';
if (chosen !== 'sqlite' && chosen !== 'postgres') throw new Error(`CLINDOC_TEST_DATABASE must be sqlite or postgres, not "${chosen}"`);

/** The backend under test: `sqlite` (default) or `postgres`. */
export const testDatabase: 'sqlite' | 'postgres' = chosen;

/** True when the servers these tests start keep their data in PostgreSQL. */
export const onPostgres = testDatabase === 'postgres';

interface Made { name: string; url: string; encryptionKey: string }

/** One database (and one master key) per data folder, so a restart on the same folder finds its data. */
const byDataDir = new Map<string, Made>();

function adminUrl(): string {
  const url = process.env.CLINDOC_TEST_PG_URL;
  if (!url) {
    throw new Error('CLINDOC_TEST_DATABASE=postgres needs CLINDOC_TEST_PG_URL (eval "$(bash scripts/postgres-throwaway.sh start)", or run scripts/test.sh)');
  }
  return url;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * What a server on `dataDir` needs besides its own settings: nothing on SQLite; on PostgreSQL
 * CLINDOC_DATABASE_URL (a database created for this data folder on first use) and the master key
 * every instance must share (CLINDOC_ENCRYPTION_KEY, one per data folder). Settings the test gives
 * itself in `env` win.
 */
export async function databaseEnv(dataDir: string, env: Record<string, string | undefined> = {}): Promise<Record<string, string>> {
  if (!onPostgres || env.CLINDOC_DATABASE_URL) return {};
  let made = byDataDir.get(dataDir);
  if (!made) {
    const name = `clindoc_test_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl());
    url.pathname = `/${name}`;
    made = { name, url: url.toString(), encryptionKey: randomBytes(32).toString('hex') };
    byDataDir.set(dataDir, made);
  }
  return { CLINDOC_DATABASE_URL: made.url, ...(env.CLINDOC_ENCRYPTION_KEY ? {} : { CLINDOC_ENCRYPTION_KEY: made.encryptionKey }) };
}

/** Rows of `sql` (with SQLite's `?` placeholders) on the PostgreSQL database at `url`. */
export async function queryRows<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * The tables of the PostgreSQL database at `url` (every schema but the system's, pg-boss's queue
 * included) in which some row, read as text, contains `marker`: the database's side of a check that
 * nothing is kept in the clear.
 */
export async function tablesContaining(url: string, marker: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    )).rows;
    const found: string[] = [];
    for (const { name } of tables) {
      const hit = await client.query(`SELECT 1 FROM ${name} t WHERE strpos(t::text, $1) > 0 LIMIT 1`, [marker]);
      if (hit.rowCount) found.push(`postgres:${name}`);
    }
    return found;
  } finally {
    await client.end();
  }
}

/** Drops the database made for `dataDir` (connections still open are cut), if one was made. */
export async function dropDatabaseOf(dataDir: string): Promise<void> {
  const made = byDataDir.get(dataDir);
  if (!made) return;
  byDataDir.delete(dataDir);
  await admin(`DROP DATABASE IF EXISTS ${made.name} WITH (FORCE)`);
}

// A data folder a test keeps across restarts has its database dropped when the test file ends.
// Vitest runs each file in a fresh module graph, so this hook belongs to the file that imported us
// (a benchmark outside Vitest cannot import Vitest at all, hence the dynamic import).
if (onPostgres && process.env.VITEST) {
  const { afterAll } = await import('vitest');
  afterAll(async () => {
    for (const dataDir of [...byDataDir.keys()]) await dropDatabaseOf(dataDir);
  });
}
