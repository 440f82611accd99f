import type { Page } from '../services/storage.js';

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
