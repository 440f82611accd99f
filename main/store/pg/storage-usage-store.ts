import { stat } from 'node:fs/promises';
import type { AccountUsage, KindUsage, StorageUsageReader } from '../../services/storage-usage/ports.js';
import type { BlobStore } from '../../services/storage.js';
import type { Sql } from './sql.js';

// Bytes are the stored values' octet lengths (ciphertext where columns are sealed), as the SQLite
// reader counts them: what the rows hold, not the server's page and TOAST overhead.
const SUMS = {
  notes: `COUNT(*) AS count, COALESCE(SUM(octet_length(request) + COALESCE(octet_length(markdown), 0) + COALESCE(octet_length(json), 0)
          + COALESCE(octet_length(error), 0) + COALESCE(octet_length(addenda), 0)), 0)::bigint AS bytes FROM notes`,
  transcriptions: `COUNT(*) AS count, COALESCE(SUM(octet_length(options) + COALESCE(octet_length(result), 0) + COALESCE(octet_length(error), 0)), 0)::bigint AS bytes
          FROM transcriptions`,
  templates: 'COUNT(*) AS count, COALESCE(SUM(octet_length(body)), 0)::bigint AS bytes FROM note_templates',
  macros: 'COUNT(*) AS count, COALESCE(SUM(octet_length(body)), 0)::bigint AS bytes FROM macros',
  webhooks: 'COUNT(*) AS count, COALESCE(SUM(octet_length(url) + octet_length(events) + octet_length(secret)), 0)::bigint AS bytes FROM webhooks',
  visits: 'COUNT(*) AS count, COALESCE(SUM(octet_length(content)), 0)::bigint AS bytes FROM visits',
} as const;

type Kind = keyof typeof SUMS;

/**
 * Storage usage of an account, read from PostgreSQL (one statement, every sum scoped to the
 * account) and the audio blob folder, whose files stay on the machine that received them.
 */
export function createPgStorageUsageStore(sql: Sql, blobs: Pick<BlobStore, 'pathOf' | 'exists'>): StorageUsageReader {
  const kinds = Object.keys(SUMS) as Kind[];
  // One row per kind: `SELECT 'notes' AS kind, <sums> WHERE account_id = $1 UNION ALL ...`.
  const statement = kinds.map((k) => `SELECT '${k}' AS kind, ${SUMS[k]} WHERE account_id = $1`).join('\nUNION ALL\n');
  return {
    async usage(accountId): Promise<AccountUsage> {
      const { rows } = await sql.query<{ kind: Kind; count: number; bytes: number }>(statement, [accountId]);
      const sums = Object.fromEntries(rows.map((r) => [r.kind, { count: r.count, bytes: r.bytes }])) as Record<Kind, KindUsage>;
      const audio: KindUsage = { count: 0, bytes: 0 };
      const keys = await sql.query<{ key: string }>('SELECT audio_blob AS key FROM transcriptions WHERE account_id = $1 AND audio_blob IS NOT NULL', [accountId]);
      for (const { key } of keys.rows) {
        if (!(await blobs.exists(key))) continue; // discarded after transcription, or removed by retention
        try {
          audio.bytes += (await stat(blobs.pathOf(key))).size;
          audio.count++;
        } catch (err) {
          // Deleted between the check and the stat (retention ran): not stored any more.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      return { ...sums, audio };
    },
  };
}
