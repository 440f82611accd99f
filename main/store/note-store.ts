import type { Db } from './database.js';
import type { NoteRecord, NoteStore } from '../services/storage.js';
import { decodeCursor, pageOf } from './paging.js';
import { invalidRequest } from '../services/errors.js';

interface NoteRow {
  id: string; account_id: string; status: NoteRecord['status']; request: string; markdown: string | null;
  json: string | null; error: string | null; created_at: number; started_at: number | null; completed_at: number | null;
}

const toNote = (r: NoteRow): NoteRecord => ({
  id: r.id,
  accountId: r.account_id,
  status: r.status,
  request: JSON.parse(r.request) as unknown,
  markdown: r.markdown,
  json: r.json === null ? null : (JSON.parse(r.json) as Record<string, unknown>),
  error: r.error,
  createdAt: r.created_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
});

const COLUMNS: Record<string, string> = {
  status: 'status', markdown: 'markdown', json: 'json', error: 'error', startedAt: 'started_at', completedAt: 'completed_at',
};

/** SQLite implementation of the notes port. */
export function createNoteStore(db: Db): NoteStore {
  const insert = db.prepare(
    'INSERT INTO notes (id, account_id, status, request, markdown, json, error, created_at, started_at, completed_at) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const get = db.prepare('SELECT * FROM notes WHERE account_id = ? AND id = ?');
  const getAny = db.prepare('SELECT * FROM notes WHERE id = ?');
  const first = db.prepare('SELECT * FROM notes WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
  const after = db.prepare(
    'SELECT * FROM notes WHERE account_id = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const del = db.prepare('DELETE FROM notes WHERE account_id = ? AND id = ?');
  return {
    insert: (n) =>
      void insert.run(n.id, n.accountId, n.status, JSON.stringify(n.request), n.markdown, n.json === null ? null : JSON.stringify(n.json),
        n.error, n.createdAt, n.startedAt, n.completedAt),
    get: (accountId, id) => {
      const row = get.get(accountId, id) as NoteRow | undefined;
      return row ? toNote(row) : undefined;
    },
    getForJob: (id) => {
      const row = getAny.get(id) as NoteRow | undefined;
      return row ? toNote(row) : undefined;
    },
    list: (accountId, limit, cursor) => {
      let rows: NoteRow[];
      if (cursor) {
        const c = decodeCursor(cursor);
        if (!c) throw invalidRequest('cursor: not a cursor returned by this API');
        rows = after.all(accountId, c.createdAt, c.createdAt, c.id, limit + 1) as NoteRow[];
      } else rows = first.all(accountId, limit + 1) as NoteRow[];
      return pageOf(rows, limit, toNote, (r) => [r.created_at, r.id]);
    },
    update: (id, changes) => {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = COLUMNS[field];
        if (!column) continue;
        sets.push(`${column} = ?`);
        values.push(field === 'json' && value !== null && value !== undefined ? JSON.stringify(value) : value);
      }
      if (sets.length) db.prepare(`UPDATE notes SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    },
    delete: (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
