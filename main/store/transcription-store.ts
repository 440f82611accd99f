import type { Db } from './database.js';
import type { TranscriptionRecord, TranscriptionStore } from '../services/storage.js';
import { createRowReads } from './paging.js';
import type { FieldCipher } from './crypto/field-cipher.js';
import {
  TRANSCRIPTION_COLUMNS, TRANSCRIPTION_JSON_FIELDS, sealTranscriptionField, transcriptionFromRow, type TranscriptionRow,
} from './rows/transcriptions.js';
import { createOutboxWriter } from './outbox.js';

/** SQLite implementation of the transcriptions port; options and result are stored encrypted. */
export function createTranscriptionStore(db: Db, cipher: FieldCipher): TranscriptionStore {
  const seal = (field: string, id: string, value: unknown): string => sealTranscriptionField(cipher, field, id, value);
  const insert = db.prepare(
    `INSERT INTO transcriptions (id, account_id, status, options, audio_blob, audio_type, result, error, created_at, updated_at, started_at, completed_at)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const del = db.prepare('DELETE FROM transcriptions WHERE account_id = ? AND id = ?');
  const announced = createOutboxWriter(db, 'transcriptions');
  return {
    insert: async (t) =>
      void insert.run(t.id, t.accountId, t.status, seal('options', t.id, t.options), t.audioBlob, t.audioType,
        t.result === null ? null : seal('result', t.id, t.result), t.error, t.createdAt, t.updatedAt, t.startedAt, t.completedAt),
    ...createRowReads<TranscriptionRow, TranscriptionRecord>(db, 'transcriptions', (r) => transcriptionFromRow(cipher, r)),
    update: async (id, changes, only, announce) => {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = TRANSCRIPTION_COLUMNS[field];
        if (!column) continue;
        sets.push(`${column} = ?`);
        values.push(TRANSCRIPTION_JSON_FIELDS.has(field) && value !== null && value !== undefined ? seal(field, id, value) : value);
      }
      if (!sets.length) return false;
      const statusIn = only?.statusIn;
      const where = statusIn ? `id = ? AND status IN (${statusIn.map(() => '?').join(', ')})` : 'id = ?';
      const statement = db.prepare(`UPDATE transcriptions SET ${sets.join(', ')} WHERE ${where}`);
      return announced(id, () => statement.run(...values, id, ...(statusIn ?? [])).changes > 0, announce);
    },
    delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
