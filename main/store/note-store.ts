import type { Db } from './database.js';
import type { NoteRecord, NoteStore } from '../services/storage.js';
import { createPager } from './paging.js';
import { rowContext, type FieldCipher } from './crypto/field-cipher.js';

interface NoteRow {
  id: string; account_id: string; status: NoteRecord['status']; request: string; markdown: string | null;
  json: string | null; error: string | null; created_at: number; started_at: number | null; completed_at: number | null;
  version: number; signed_at: number | null; signed_by: string | null; addenda: string | null;
  engine: string | null; engine_model: string | null;
}


// Patient data columns, sealed with AES-256-GCM; the row id is part of each value's context.
const SEALED = { request: 'notes.request', markdown: 'notes.markdown', json: 'notes.json', addenda: 'notes.addenda' } as const;

const toNote = (cipher: FieldCipher, r: NoteRow): NoteRecord => {
  // The request (it holds the whole transcript, the largest value) is opened only when read:
  // answering GET /v1/notes/{id} never needs it (issue 19). Opening it still fails loudly if tampered.
  let request: { value: unknown } | undefined;
  return {
    id: r.id,
    accountId: r.account_id,
    status: r.status,
    get request(): unknown {
      request ??= { value: JSON.parse(cipher.open(r.request, rowContext(SEALED.request, r.id))) as unknown };
      return request.value;
    },
    markdown: r.markdown === null ? null : cipher.open(r.markdown, rowContext(SEALED.markdown, r.id)),
    json: r.json === null ? null : (JSON.parse(cipher.open(r.json, rowContext(SEALED.json, r.id))) as Record<string, unknown>),
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    version: r.version,
    signedAt: r.signed_at,
    signedBy: r.signed_by,
    addenda: r.addenda === null ? [] : (JSON.parse(cipher.open(r.addenda, rowContext(SEALED.addenda, r.id))) as NoteRecord['addenda']),
    // Engine names are configuration, not patient data: kept in clear.
    ...(r.engine ? { generatedBy: { engine: r.engine, ...(r.engine_model ? { model: r.engine_model } : {}) } } : {}),
  };
};


const COLUMNS: Record<string, string> = {
  status: 'status', markdown: 'markdown', json: 'json', error: 'error', startedAt: 'started_at', completedAt: 'completed_at',
  version: 'version', signedAt: 'signed_at', signedBy: 'signed_by', addenda: 'addenda',
};

/** SQLite implementation of the notes port; request, markdown and json are stored encrypted. */
export function createNoteStore(db: Db, cipher: FieldCipher): NoteStore {
  const seal = (column: keyof typeof SEALED, id: string, text: string | null): string | null =>
    text === null ? null : cipher.seal(text, rowContext(SEALED[column], id));
  const insert = db.prepare(
    `INSERT INTO notes (id, account_id, status, request, markdown, json, error, created_at, started_at, completed_at, version, signed_at, signed_by, addenda)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const get = db.prepare('SELECT * FROM notes WHERE account_id = ? AND id = ?');
  const getAny = db.prepare('SELECT * FROM notes WHERE id = ?');
  const page = createPager<NoteRow>(db, 'notes');
  const del = db.prepare('DELETE FROM notes WHERE account_id = ? AND id = ?');
  return {
      insert: async (n) =>
        void insert.run(n.id, n.accountId, n.status, seal('request', n.id, JSON.stringify(n.request)), seal('markdown', n.id, n.markdown),
          seal('json', n.id, n.json === null ? null : JSON.stringify(n.json)), n.error, n.createdAt, n.startedAt, n.completedAt,
          n.version, n.signedAt, n.signedBy, n.addenda.length ? seal('addenda', n.id, JSON.stringify(n.addenda)) : null),
      get: async (accountId, id) => {
        const row = get.get(accountId, id) as NoteRow | undefined;
        return row ? toNote(cipher, row) : undefined;
      },
      getForJob: async (id) => {
        const row = getAny.get(id) as NoteRow | undefined;
        return row ? toNote(cipher, row) : undefined;
      },
      list: async (accountId, limit, cursor) => page(accountId, limit, cursor, (r) => toNote(cipher, r)),
      update: async (id, changes, only) => {
        const sets: string[] = [];
        const values: unknown[] = [];
        for (const [field, value] of Object.entries(changes)) {
          if (field === 'generatedBy') {
            const by = value as NoteRecord['generatedBy'];
            sets.push('engine = ?', 'engine_model = ?');
            values.push(by?.engine ?? null, by?.model ?? null);
            continue;
          }
          const column = COLUMNS[field];
          if (!column) continue;

          sets.push(`${column} = ?`);
          if (field === 'json') values.push(value === null || value === undefined ? value : seal('json', id, JSON.stringify(value)));
          else if (field === 'markdown') values.push(value === null || value === undefined ? value : seal('markdown', id, String(value)));
          else if (field === 'addenda') values.push(seal('addenda', id, JSON.stringify(value ?? [])));
          else values.push(value);
        }
        if (!sets.length) return false;
        // The condition sits in the statement that writes, so it is checked against the row as written.
        const where = ['id = ?'];
        const key: unknown[] = [id];
        if (only?.version !== undefined) {
          where.push('version = ?');
          key.push(only.version);
        }
        if (only?.statusIn) {
          where.push(`status IN (${only.statusIn.map(() => '?').join(', ')})`);
          key.push(...only.statusIn);
        }
        return db.prepare(`UPDATE notes SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`).run(...values, ...key).changes > 0;
      },
      delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
