import type { NoteRecord, NoteStore } from '../../services/storage.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import { NOTE_COLUMNS, noteFromRow, sealNoteColumn, type NOTE_SEALED, type NoteRow } from '../rows/notes.js';
import { createPgRowReads } from './paging.js';
import type { Sql } from './sql.js';
import { updateRow } from './outbox.js';

/** PostgreSQL implementation of the notes port; request, markdown, json and addenda are stored encrypted. */
export function createPgNoteStore(sql: Sql, cipher: FieldCipher): NoteStore {
  const seal = (column: keyof typeof NOTE_SEALED, id: string, text: string | null): string | null => sealNoteColumn(cipher, column, id, text);
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
    ...createPgRowReads<NoteRow, NoteRecord>(sql, 'notes', (r) => noteFromRow(cipher, r)),
    async update(id, changes, only, announce) {
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
          set('engine_fallback', by?.fallbackFrom ? JSON.stringify(by.fallbackFrom) : null);
          continue;
        }
        const column = NOTE_COLUMNS[field];
        if (!column || value === undefined) continue;
        if (field === 'json') set(column, value === null ? null : seal('json', id, JSON.stringify(value)));
        else if (field === 'markdown') set(column, value === null ? null : seal('markdown', id, String(value)));
        else if (field === 'addenda') set(column, seal('addenda', id, JSON.stringify(value ?? [])));
        else set(column, value);
      }
      return updateRow(sql, 'notes', sets, values, id, only, announce);
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM notes WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
  };
}
