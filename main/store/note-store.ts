import type { Db } from './database.js';
import type { NoteRecord, NoteStore } from '../services/storage.js';
import { createRowReads } from './paging.js';
import type { FieldCipher } from './crypto/field-cipher.js';
import { NOTE_COLUMNS, noteFromRow, sealNoteColumn, type NOTE_SEALED, type NoteRow } from './rows/notes.js';
import { createOutboxWriter } from './outbox.js';

/** SQLite implementation of the notes port; request, markdown and json are stored encrypted. */
export function createNoteStore(db: Db, cipher: FieldCipher): NoteStore {
  const seal = (column: keyof typeof NOTE_SEALED, id: string, text: string | null): string | null => sealNoteColumn(cipher, column, id, text);
  const insert = db.prepare(
    `INSERT INTO notes (id, account_id, status, request, markdown, json, error, created_at, started_at, completed_at, version, signed_at, signed_by, addenda)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const del = db.prepare('DELETE FROM notes WHERE account_id = ? AND id = ?');
  const announced = createOutboxWriter(db, 'notes');
  return {
      insert: async (n) =>
        void insert.run(n.id, n.accountId, n.status, seal('request', n.id, JSON.stringify(n.request)), seal('markdown', n.id, n.markdown),
          seal('json', n.id, n.json === null ? null : JSON.stringify(n.json)), n.error, n.createdAt, n.startedAt, n.completedAt,
          n.version, n.signedAt, n.signedBy, n.addenda.length ? seal('addenda', n.id, JSON.stringify(n.addenda)) : null),
      ...createRowReads<NoteRow, NoteRecord>(db, 'notes', (r) => noteFromRow(cipher, r)),
      update: async (id, changes, only, announce) => {
        const sets: string[] = [];
        const values: unknown[] = [];
        for (const [field, value] of Object.entries(changes)) {
          if (field === 'generatedBy') {
            const by = value as NoteRecord['generatedBy'];
            sets.push('engine = ?', 'engine_model = ?', 'engine_fallback = ?');
            values.push(by?.engine ?? null, by?.model ?? null, by?.fallbackFrom ? JSON.stringify(by.fallbackFrom) : null);
            continue;
          }
          const column = NOTE_COLUMNS[field];
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
        const statement = db.prepare(`UPDATE notes SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`);
        return announced(id, () => statement.run(...values, ...key).changes > 0, announce);
      },
      delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
