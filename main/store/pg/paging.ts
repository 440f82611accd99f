import type { Page, ResourceStore } from '../../services/storage.js';
import { invalidRequest } from '../../services/errors.js';
import { decodeCursor, pageOf } from '../paging.js';
import type { Sql } from './sql.js';

/**
 * Newest-first, account-scoped paging over one table with (created_at, id) order, on PostgreSQL:
 * the same cursors as the SQLite pager, so a cursor means the same on either database. `table`
 * is a fixed name chosen by the store, never caller input.
 */
export function createPgPager<Row extends { created_at: number; id: string }>(sql: Sql, table: string) {
  const first = `SELECT * FROM ${table} WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`;
  const after = `SELECT * FROM ${table} WHERE account_id = $1 AND (created_at, id) < ($2::bigint, $3::text) ORDER BY created_at DESC, id DESC LIMIT $4`;
  return async <T>(accountId: string, limit: number, cursor: string | undefined, map: (row: Row) => T): Promise<Page<T>> => {
    let rows: Row[];
    if (cursor) {
      const c = decodeCursor(cursor);
      // A hand-made cursor with a fractional or huge time would fail the bigint cast as a 500.
      if (!c || !Number.isSafeInteger(c.createdAt)) throw invalidRequest('cursor: not a cursor returned by this API');
      ({ rows } = await sql.query<Row>(after, [accountId, c.createdAt, c.id, limit + 1]));
    } else ({ rows } = await sql.query<Row>(first, [accountId, limit + 1]));
    return pageOf(rows, limit, map, (r) => [r.created_at, r.id]);
  };
}

/**
 * The reads of a resource table (notes, transcriptions) on PostgreSQL: one row of an account, one
 * row by id for the job working on it, and newest-first pages, each row read through `fromRow`.
 */
export function createPgRowReads<Row extends { created_at: number; id: string }, T>(
  sql: Sql, table: string, fromRow: (row: Row) => T,
): Pick<ResourceStore<T>, 'get' | 'getForJob' | 'list'> {
  const page = createPgPager<Row>(sql, table);
  const read = (row: Row | undefined): T | undefined => (row ? fromRow(row) : undefined);
  return {
    get: async (accountId, id) => read((await sql.query<Row>(`SELECT * FROM ${table} WHERE account_id = $1 AND id = $2`, [accountId, id])).rows[0]),
    getForJob: async (id) => read((await sql.query<Row>(`SELECT * FROM ${table} WHERE id = $1`, [id])).rows[0]),
    list: (accountId, limit, cursor) => page(accountId, limit, cursor, fromRow),
  };
}
