import pg from 'pg';
import { invalidRequest } from '../../services/errors.js';

/**
 * The one seam every PostgreSQL adapter uses: run a statement with bound values, get rows and the
 * count of rows it touched. Adapters take a `Sql`, so a test can hand in a pool, a single client
 * or a wrapper that counts round trips.
 */
export interface Sql {
  query<R extends object = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ rows: R[]; rowCount: number }>;
}

/**
 * A failed statement, stripped of what PostgreSQL adds about the values (`detail`, `where`, the
 * statement itself): a unique violation's detail quotes the key, and keys and values may be patient
 * data. `code` is the SQLSTATE (`53100` disk full, `23505` unique violation, ...).
 */
export class PgStoreError extends Error {
  readonly code: string | undefined;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  constructor(code: string | undefined, constraint: string | undefined, table: string | undefined) {
    const what = code === undefined ? '' : /^[0-9A-Z]{5}$/.test(code) ? ` (SQLSTATE ${code})` : ` (${code})`;
    super(`database statement failed${what}${table ? ` on ${table}` : ''}${constraint ? `, constraint ${constraint}` : ''}`);
    this.name = 'PgStoreError';
    this.code = code;
    this.constraint = constraint;
    this.table = table;
  }
}

/**
 * SQLSTATEs of a text value PostgreSQL cannot hold (a NUL character, 22021, or one the server's
 * encoding lacks, 22P05). SQLite keeps such text; here the request that carried it is refused as
 * invalid (400) instead of failing as a server error.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Rethrows a driver failure as a PgStoreError; a non-database failure (a bug, a lost socket) keeps its name and code only. */
export function scrub(err: unknown): never {
  if (err instanceof PgStoreError) throw err;
  if (err instanceof pg.DatabaseError && err.code && UNSTORABLE_TEXT.has(err.code)) {
    throw invalidRequest('text with a NUL character (or one the database cannot encode) cannot be stored or looked up');
  }
  if (err instanceof pg.DatabaseError) throw new PgStoreError(err.code, err.constraint, err.table);
  const e = err as { code?: unknown; name?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const out = new PgStoreError(code, undefined, undefined);
  if (typeof e?.name === 'string') out.message += ` (${e.name})`;
  throw out;
}

// int8 (COUNT(*), BIGINT times and sizes) arrives as text by default; every value the stores keep in
// one fits a double exactly (milliseconds since 1970, byte counts), so they are read as numbers.
const INT8_OID = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Wraps a pool (or client) as a `Sql` whose failures never carry statement values. */
export function sqlOf(client: pg.Pool | pg.PoolClient | pg.Client): Sql {
  return {
    async query<R extends object>(text: string, values: readonly unknown[] = []) {
      try {
        const result = await client.query<R>(text, values as unknown[]);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      } catch (err) {
        scrub(err);
      }
    },
  };
}

/** Options of the connection pool. */
export interface PoolOptions {
  /** Connection URL (CLINDOC_DATABASE_URL). */
  url: string;
  /** Most connections this process holds (default 10). */
  poolSize?: number;
}

/** A pool that reads int8 as numbers; idle-client errors (a server restart) are absorbed, the next query reconnects. */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // An unreachable server fails a query (and readiness) in bounded time instead of hanging it.
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    types,
    application_name: 'clindoc',
  });
  // Without a listener an idle client's socket error would crash the process; the query that
  // next needs a client gets a fresh one, and its own failure reaches its caller.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one client of the pool: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch(scrub);
  // A client whose ROLLBACK failed may hold an open transaction: destroyed, not returned to the pool.
  let broken = false;
  try {
    await client.query('BEGIN').catch(scrub);
    const result = await work(sqlOf(client));
    await client.query('COMMIT').catch(scrub);
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
