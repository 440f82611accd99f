import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { AccountUsage, KindUsage, StorageUsageReader } from '../services/storage-usage/ports.js';
import type { BlobStore } from '../services/storage.js';

// Bytes are the stored column lengths (ciphertext where columns are sealed): what the rows weigh
// in the database file, not counting SQLite's page overhead.
const SUMS = {
  notes: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(request) + COALESCE(LENGTH(markdown), 0) + COALESCE(LENGTH(json), 0) + COALESCE(LENGTH(error), 0) + COALESCE(LENGTH(addenda), 0)), 0) AS bytes FROM notes WHERE account_id = ?',
  transcriptions: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(options) + COALESCE(LENGTH(result), 0) + COALESCE(LENGTH(error), 0)), 0) AS bytes FROM transcriptions WHERE account_id = ?',
  templates: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(body)), 0) AS bytes FROM note_templates WHERE account_id = ?',
  macros: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(body)), 0) AS bytes FROM macros WHERE account_id = ?',
  webhooks: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(url) + LENGTH(events) + LENGTH(secret)), 0) AS bytes FROM webhooks WHERE account_id = ?',
  visits: 'SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(content)), 0) AS bytes FROM visits WHERE account_id = ?',
} as const;

/** Storage usage of an account, read from SQLite and the audio blob folder. */
export function createStorageUsageStore(db: Database.Database, blobs: Pick<BlobStore, 'pathOf' | 'exists'>): StorageUsageReader {
  const stmts = Object.fromEntries(Object.entries(SUMS).map(([k, sql]) => [k, db.prepare(sql)])) as Record<keyof typeof SUMS, Database.Statement>;
  const audioKeys = db.prepare('SELECT audio_blob AS key FROM transcriptions WHERE account_id = ? AND audio_blob IS NOT NULL');
  const sum = (kind: keyof typeof SUMS, accountId: string): KindUsage => {
    const row = stmts[kind].get(accountId) as { count: number; bytes: number };
    return { count: row.count, bytes: row.bytes };
  };
  return {
    async usage(accountId): Promise<AccountUsage> {
      const audio: KindUsage = { count: 0, bytes: 0 };
      for (const { key } of audioKeys.all(accountId) as { key: string }[]) {
        if (!(await blobs.exists(key))) continue; // discarded after transcription, or removed by retention
        audio.count++;
        audio.bytes += statSync(blobs.pathOf(key)).size;
      }
      return {
        notes: sum('notes', accountId), transcriptions: sum('transcriptions', accountId), audio,
        templates: sum('templates', accountId), macros: sum('macros', accountId), webhooks: sum('webhooks', accountId), visits: sum('visits', accountId),
      };
    },
  };
}
