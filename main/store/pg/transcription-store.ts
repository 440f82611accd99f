import type { TranscriptionRecord, TranscriptionStore } from '../../services/storage.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import {
  TRANSCRIPTION_COLUMNS, TRANSCRIPTION_JSON_FIELDS, sealTranscriptionField, transcriptionFromRow, type TranscriptionRow,
} from '../rows/transcriptions.js';
import { createPgRowReads } from './paging.js';
import type { Sql } from './sql.js';
import { updateRow } from './outbox.js';

/** PostgreSQL implementation of the transcriptions port; options and result are stored encrypted. */
export function createPgTranscriptionStore(sql: Sql, cipher: FieldCipher): TranscriptionStore {
  const seal = (field: string, id: string, value: unknown): string => sealTranscriptionField(cipher, field, id, value);
  return {
    async insert(t) {
      await sql.query(
        `INSERT INTO transcriptions (id, account_id, status, options, audio_blob, audio_type, result, error, created_at, updated_at, started_at, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          t.id, t.accountId, t.status, seal('options', t.id, t.options), t.audioBlob, t.audioType,
          t.result === null ? null : seal('result', t.id, t.result), t.error, t.createdAt, t.updatedAt, t.startedAt, t.completedAt,
        ],
      );
    },
    ...createPgRowReads<TranscriptionRow, TranscriptionRecord>(sql, 'transcriptions', (r) => transcriptionFromRow(cipher, r)),
    async update(id, changes, only, announce) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = TRANSCRIPTION_COLUMNS[field];
        if (!column || value === undefined) continue;
        values.push(TRANSCRIPTION_JSON_FIELDS.has(field) && value !== null ? seal(field, id, value) : value);
        sets.push(`${column} = $${values.length}`);
      }
      // Only while the stored status is one of `only.statusIn`, checked by the statement that writes.
      return updateRow(sql, 'transcriptions', sets, values, id, only, announce);
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM transcriptions WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
  };
}
