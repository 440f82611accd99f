import type { TranscriptionRecord, TranscriptionStore } from '../../services/storage.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';
import { createPgPager } from './paging.js';
import type { Sql } from './sql.js';

interface Row {
  id: string; account_id: string; status: TranscriptionRecord['status']; options: string; audio_blob: string | null;
  audio_type: string | null; result: string | null; error: string | null; created_at: number; updated_at: number;
  started_at: number | null; completed_at: number | null;
}

const COLUMNS: Record<string, string> = {
  status: 'status', options: 'options', audioBlob: 'audio_blob', audioType: 'audio_type', result: 'result', error: 'error',
  updatedAt: 'updated_at', startedAt: 'started_at', completedAt: 'completed_at',
};
const JSON_FIELDS = new Set(['options', 'result']);

/** PostgreSQL implementation of the transcriptions port; options and result are stored encrypted. */
export function createPgTranscriptionStore(sql: Sql, cipher: FieldCipher): TranscriptionStore {
  const seal = (field: string, id: string, value: unknown): string => cipher.seal(JSON.stringify(value), rowContext(`transcriptions.${field}`, id));
  const toRecord = (r: Row): TranscriptionRecord => ({
    id: r.id,
    accountId: r.account_id,
    status: r.status,
    options: JSON.parse(cipher.open(r.options, rowContext('transcriptions.options', r.id))) as Record<string, unknown>,
    audioBlob: r.audio_blob,
    audioType: r.audio_type,
    result: r.result === null ? null : (JSON.parse(cipher.open(r.result, rowContext('transcriptions.result', r.id))) as Record<string, unknown>),
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
  });
  const page = createPgPager<Row>(sql, 'transcriptions');
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
    async get(accountId, id) {
      const row = (await sql.query<Row>('SELECT * FROM transcriptions WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
      return row ? toRecord(row) : undefined;
    },
    async getForJob(id) {
      const row = (await sql.query<Row>('SELECT * FROM transcriptions WHERE id = $1', [id])).rows[0];
      return row ? toRecord(row) : undefined;
    },
    list: (accountId, limit, cursor) => page(accountId, limit, cursor, toRecord),
    async update(id, changes, only) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = COLUMNS[field];
        if (!column || value === undefined) continue;
        values.push(JSON_FIELDS.has(field) && value !== null ? seal(field, id, value) : value);
        sets.push(`${column} = $${values.length}`);
      }
      if (!sets.length) return false;
      values.push(id);
      let where = `id = $${values.length}`;
      // Checked by the statement that writes, as for notes (./note-store.ts).
      if (only?.statusIn) {
        values.push(only.statusIn);
        where += ` AND status = ANY($${values.length}::text[])`;
      }
      return (await sql.query(`UPDATE transcriptions SET ${sets.join(', ')} WHERE ${where}`, values)).rowCount > 0;
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM transcriptions WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
  };
}
