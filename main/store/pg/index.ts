import type pg from 'pg';
import type { RetentionStore } from '../../services/audit/ports.js';
import type { AccountStore, BlobStore } from '../../services/storage.js';
import type { Stores } from '../../services/stores.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import { createPgAccountStore } from './account-store.js';
import { createPgAuditStore, createPgRetentionStore } from './audit-store.js';
import { createPgDocumentStore } from './document-store.js';
import { createPgEngineSettingsStore } from './engine-settings-store.js';
import { createPgIdempotencyStore } from './idempotency-store.js';
import { acquireInstanceLease, type InstanceLease } from './instance-lease.js';
import { createPgJobStore } from './job-store.js';
import { migratePg } from './migrations.js';
import { createPgNoteStore } from './note-store.js';
import { createPool, sqlOf } from './sql.js';
import { createPgStorageUsageStore } from './storage-usage-store.js';
import { createPgTranscriptionStore } from './transcription-store.js';
import { createPgVisitStore } from './visit-store.js';
import { createPgWebhookStore } from './webhook-store.js';

export { PG_MIGRATIONS, migratePg } from './migrations.js';
export { PgStoreError, type Sql } from './sql.js';

/** What `openPostgresStores` needs. */
export interface PostgresStoreOptions {
  /** Connection URL, e.g. `postgres://clindoc@db.clinic.lan/clindoc` (CLINDOC_DATABASE_URL; without it Clindoc stays on SQLite). */
  url: string;
  /** The column cipher: values are sealed exactly as in the SQLite stores. */
  cipher: FieldCipher;
  /** Audio blobs (on this machine's disk), for the storage usage of audio. */
  blobs: Pick<BlobStore, 'pathOf' | 'exists'>;
  /** Most connections this process opens (default 10). */
  poolSize?: number;
}

/** Every store Clindoc keeps in a shared database, plus readiness and shutdown. */
export interface PostgresStores extends Stores {
  /** The connection pool the stores use, for other shared state of this database (rate-limit windows). */
  pool: pg.Pool;
  /** Resolves when the database answers a query; rejects (without the URL or any value) otherwise. For readiness checks. */
  ping(): Promise<void>;
  /** Waits for running queries and closes every connection, the instance lease's included (its claims become recoverable). */
  close(): Promise<void>;
}

/**
 * Connects a pool to PostgreSQL, applies pending migrations (once, however many instances start
 * together), takes this instance's lease (one more connection, outside the pool; see
 * instance-lease.ts) and returns the stores. Rejects when the server cannot be reached or the
 * schema is newer than this code, closing what it opened. Nothing here logs; failures carry the
 * SQLSTATE, table and constraint only (PgStoreError), never a statement's values.
 */
export async function openPostgresStores(options: PostgresStoreOptions): Promise<PostgresStores> {
  const pool = createPool({ url: options.url, ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}) });
  let lease: InstanceLease;
  try {
    await migratePg(pool);
    lease = await acquireInstanceLease(options.url);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const sql = sqlOf(pool);
  const { cipher } = options;
  let closed: Promise<void> | undefined;
  return {
    accounts: createPgAccountStore(sql),
    notes: createPgNoteStore(sql, cipher),
    templates: createPgDocumentStore(sql, 'note_templates', cipher),
    macros: createPgDocumentStore(sql, 'macros', cipher),
    voiceAdaptation: createPgDocumentStore(sql, 'voice_adaptation', cipher),
    transcriptions: createPgTranscriptionStore(sql, cipher),
    jobs: createPgJobStore(sql, {}, lease.id),
    idempotency: createPgIdempotencyStore(sql, cipher, lease.id),
    webhooks: createPgWebhookStore(sql, cipher, lease.id),
    audit: createPgAuditStore(sql),
    retention: createPgRetentionStore(sql),
    engineSettings: createPgEngineSettingsStore(sql, cipher),
    visits: createPgVisitStore(sql, cipher),
    storageUsage: createPgStorageUsageStore(sql, options.blobs),
    pool,
    async ping() {
      await sql.query('SELECT 1');
    },
    close: () => (closed ??= Promise.all([pool.end(), lease.close()]).then(() => undefined)),
  };
}

/**
 * The stores the CLI's account commands need, without the cipher, the blobs or an instance lease:
 * `clindoc accounts create` on a clinic server. Migrates like `openPostgresStores`.
 */
export async function openPostgresAccounts(url: string): Promise<{ accounts: AccountStore; retention: RetentionStore; close(): Promise<void> }> {
  const pool = createPool({ url, poolSize: 2 });
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const sql = sqlOf(pool);
  return { accounts: createPgAccountStore(sql), retention: createPgRetentionStore(sql), close: () => pool.end() };
}
