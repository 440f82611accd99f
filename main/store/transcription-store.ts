import type { Db } from './database.js';
import type { TranscriptionRecord, TranscriptionStore } from '../services/storage.js';
import { createPager } from './paging.js';
import { rowContext, type FieldCipher } from './crypto/field-cipher.js';

interface Row {
  id: string; account_id: string; status: TranscriptionRecord['status']; options: string; audio_blob: string | null;
  audio_type: string | null; result: string | null; error: string | null; created_at: number; updated_at: number;
  started_at: number | null; completed_at: number | null;
}

const toRecord = (cipher: FieldCipher, r: Row): TranscriptionRecord => ({
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

const COLUMNS: Record<string, string> = {
  status: 'status', options: 'options', audioBlob: 'audio_blob', audioType: 'audio_type', result: 'result', error: 'error',
  updatedAt: 'updated_at', startedAt: 'started_at', completedAt: 'completed_at',
};
const JSON_FIELDS = new Set(['options', 'result']);

/** SQLite implementation of the transcriptions port; options and result are stored encrypted. */
export function createTranscriptionStore(db: Db, cipher: FieldCipher): TranscriptionStore {
  const seal = (field: string, id: string, value: unknown): string => cipher.seal(JSON.stringify(value), rowContext(`transcriptions.${field}`, id));
  const insert = db.prepare(
    `INSERT INTO transcriptions (id, account_id, status, options, audio_blob, audio_type, result, error, created_at, updated_at, started_at, completed_at)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const get = db.prepare('SELECT * FROM transcriptions WHERE account_id = ? AND id = ?');
  const getAny = db.prepare('SELECT * FROM transcriptions WHERE id = ?');
  const page = createPager<Row>(db, 'transcriptions');
  const del = db.prepare('DELETE FROM transcriptions WHERE account_id = ? AND id = ?');
  return {
    insert: async (t) =>
      void insert.run(t.id, t.accountId, t.status, seal('options', t.id, t.options), t.audioBlob, t.audioType,
        t.result === null ? null : seal('result', t.id, t.result), t.error, t.createdAt, t.updatedAt, t.startedAt, t.completedAt),
    get: async (accountId, id) => {
      const row = get.get(accountId, id) as Row | undefined;
      return row ? toRecord(cipher, row) : undefined;
    },
    getForJob: async (id) => {
      const row = getAny.get(id) as Row | undefined;
      return row ? toRecord(cipher, row) : undefined;
    },
    list: async (accountId, limit, cursor) => page(accountId, limit, cursor, (r) => toRecord(cipher, r)),
    update: async (id, changes, only) => {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = COLUMNS[field];
        if (!column) continue;
        sets.push(`${column} = ?`);
        values.push(JSON_FIELDS.has(field) && value !== null && value !== undefined ? seal(field, id, value) : value);
      }
      if (!sets.length) return false;
      const statusIn = only?.statusIn;
      const where = statusIn ? `id = ? AND status IN (${statusIn.map(() => '?').join(', ')})` : 'id = ?';
      return db.prepare(`UPDATE transcriptions SET ${sets.join(', ')} WHERE ${where}`).run(...values, id, ...(statusIn ?? [])).changes > 0;
    },
    delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
