import type { Page, ResourceStore } from '../services/storage.js';
import type { Db } from './database.js';
import { invalidRequest } from '../services/errors.js';

/** Opaque cursor for newest-first paging on (created_at, id). */
export function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

/** Returns undefined for an unreadable cursor, which callers treat as a 400. */
export function decodeCursor(cursor: string): { createdAt: number; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  return undefined;
}

/** Fetches limit+1 rows to learn whether another page exists. */
export function pageOf<Row, T>(rows: Row[], limit: number, map: (row: Row) => T, key: (row: Row) => [number, string]): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextCursor: more && last ? encodeCursor(...key(last)) : null };
}

/**
 * Newest-first, account-scoped paging over one table with (created_at, id) order. `table` is a
 * fixed name chosen by the store, never caller input.
 */
export function createPager<Row extends { created_at: number; id: string }>(db: Db, table: string) {
  const first = db.prepare(`SELECT * FROM ${table} WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`);
  const after = db.prepare(
    `SELECT * FROM ${table} WHERE account_id = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  return <T>(accountId: string, limit: number, cursor: string | undefined, map: (row: Row) => T): Page<T> => {
    let rows: Row[];
    if (cursor) {
      const c = decodeCursor(cursor);
      if (!c) throw invalidRequest('cursor: not a cursor returned by this API');
      rows = after.all(accountId, c.createdAt, c.createdAt, c.id, limit + 1) as Row[];
    } else rows = first.all(accountId, limit + 1) as Row[];
    return pageOf(rows, limit, map, (r) => [r.created_at, r.id]);
  };
}

/**
 * The reads of a resource table (notes, transcriptions): one row of an account, one row by id for
 * the job working on it, and newest-first pages, each row read through `fromRow`.
 */
export function createRowReads<Row extends { created_at: number; id: string }, T>(
  db: Db, table: string, fromRow: (row: Row) => T,
): Pick<ResourceStore<T>, 'get' | 'getForJob' | 'list'> {
  const get = db.prepare(`SELECT * FROM ${table} WHERE account_id = ? AND id = ?`);
  const getAny = db.prepare(`SELECT * FROM ${table} WHERE id = ?`);
  const page = createPager<Row>(db, table);
  const read = (row: Row | undefined): T | undefined => (row ? fromRow(row) : undefined);
  return {
    get: async (accountId, id) => read(get.get(accountId, id) as Row | undefined),
    getForJob: async (id) => read(getAny.get(id) as Row | undefined),
    list: async (accountId, limit, cursor) => page(accountId, limit, cursor, fromRow),
  };
}
