import type { NoteRecord, NoteStore } from '../../services/storage.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';
import { createPgPager } from './paging.js';
import type { Sql } from './sql.js';

interface NoteRow {
  id: string; account_id: string; status: NoteRecord['status']; request: string; markdown: string | null;
  json: string | null; error: string | null; created_at: number; started_at: number | null; completed_at: number | null;
  version: number; signed_at: number | null; signed_by: string | null; addenda: string | null;
  engine: string | null; engine_model: string | null;
}

// Patient data columns, sealed with the same contexts as the SQLite store (main/store/note-store.ts).
const SEALED = { request: 'notes.request', markdown: 'notes.markdown', json: 'notes.json', addenda: 'notes.addenda' } as const;

const toNote = (cipher: FieldCipher, r: NoteRow): NoteRecord => {
  // The request (the whole transcript) is opened on first read only, as in SQLite (issue 19).
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
    ...(r.engine ? { generatedBy: { engine: r.engine, ...(r.engine_model ? { model: r.engine_model } : {}) } } : {}),
  };
};

const COLUMNS: Record<string, string> = {
  status: 'status', markdown: 'markdown', json: 'json', error: 'error', startedAt: 'started_at', completedAt: 'completed_at',
  version: 'version', signedAt: 'signed_at', signedBy: 'signed_by', addenda: 'addenda',
};

/** PostgreSQL implementation of the notes port; request, markdown, json and addenda are stored encrypted. */
export function createPgNoteStore(sql: Sql, cipher: FieldCipher): NoteStore {
  const seal = (column: keyof typeof SEALED, id: string, text: string | null): string | null =>
    text === null ? null : cipher.seal(text, rowContext(SEALED[column], id));
  const page = createPgPager<NoteRow>(sql, 'notes');
  return {
    // As in SQLite, the engine is recorded by the update that writes the note, not at insert.
    async insert(n) {
      await sql.query(
        `INSERT INTO notes (id, account_id, status, request, markdown, json, error, created_at, started_at, completed_at, version, signed_at, signed_by, addenda)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          n.id, n.accountId, n.status, seal('request', n.id, JSON.stringify(n.request)), seal('markdown', n.id, n.markdown),
          seal('json', n.id, n.json === null ? null : JSON.stringify(n.json)), n.error, n.createdAt, n.startedAt, n.completedAt,
          n.version, n.signedAt, n.signedBy, n.addenda.length ? seal('addenda', n.id, JSON.stringify(n.addenda)) : null,
        ],
      );
    },
    async get(accountId, id) {
      const row = (await sql.query<NoteRow>('SELECT * FROM notes WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
      return row ? toNote(cipher, row) : undefined;
    },
    async getForJob(id) {
      const row = (await sql.query<NoteRow>('SELECT * FROM notes WHERE id = $1', [id])).rows[0];
      return row ? toNote(cipher, row) : undefined;
    },
    list: (accountId, limit, cursor) => page(accountId, limit, cursor, (r) => toNote(cipher, r)),
    async update(id, changes, only) {
      const sets: string[] = [];
      const values: unknown[] = [];
      const set = (column: string, value: unknown): void => {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      };
      for (const [field, value] of Object.entries(changes)) {
        if (field === 'generatedBy') {
          const by = value as NoteRecord['generatedBy'];
          set('engine', by?.engine ?? null);
          set('engine_model', by?.model ?? null);
          continue;
        }
        const column = COLUMNS[field];
        if (!column || value === undefined) continue;
        if (field === 'json') set(column, value === null ? null : seal('json', id, JSON.stringify(value)));
        else if (field === 'markdown') set(column, value === null ? null : seal('markdown', id, String(value)));
        else if (field === 'addenda') set(column, seal('addenda', id, JSON.stringify(value ?? [])));
        else set(column, value);
      }
      if (!sets.length) return false;
      values.push(id);
      let where = `id = $${values.length}`;
      // The condition is part of the statement that writes: of two racing changes, the second
      // waits for the first's row lock, re-checks the committed row and writes nothing.
      if (only?.version !== undefined) {
        values.push(only.version);
        where += ` AND version = $${values.length}`;
      }
      if (only?.statusIn) {
        values.push(only.statusIn);
        where += ` AND status = ANY($${values.length}::text[])`;
      }
      return (await sql.query(`UPDATE notes SET ${sets.join(', ')} WHERE ${where}`, values)).rowCount > 0;
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM notes WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
  };
}
