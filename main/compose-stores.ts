/**
 * Storage of one Clindoc process: the device's SQLite database, the data keys, audio, and in clinic
 * mode (CLINDOC_DATABASE_URL) the PostgreSQL stores that replace SQLite's account data. Whatever
 * opened is closed again when a later step fails, so a refused start leaves nothing open.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { AuditStore } from './services/audit/ports.js';
import { openDatabase, type Db } from './store/database.js';
import { openDataProtection, type DataProtection } from './store/crypto/index.js';
import type { EncryptedBlobStore } from './store/blob-store.js';
import { openBlobStore } from './store/shared-blob-store.js';
import type { Stores } from './services/stores.js';
import type { PostgresStores } from './store/pg/index.js';
import { createSqliteStores } from './store/sqlite-stores.js';

/** Every account-data store, from SQLite or from the clinic's PostgreSQL. */
export type ClindocStores = Omit<Stores, 'audit'> & { audit: AuditStore & { flush?(): void } };

export interface ComposedStores {
  /** The device's own database: everything on a desktop; installed models and their downloads on a clinic server. */
  db: Db;
  protection: DataProtection;
  blobs: EncryptedBlobStore;
  /** The clinic's PostgreSQL stores (with its pool, probe and close); absent on SQLite. */
  shared?: PostgresStores;
  stores: ClindocStores;
}

export async function composeStores(config: ClindocConfig, logger: Logger, keychainKey?: Buffer): Promise<ComposedStores> {
  // The device's own database: everything on a desktop; on a clinic server (CLINDOC_DATABASE_URL)
  // only what belongs to this machine (installed models and their downloads).
  const db = openDatabase(join(config.dataDir, 'clindoc.db'));
  let protection: DataProtection;
  try {
    protection = openDataProtection({
      dataDir: config.dataDir,
      openedCacheMb: config.openedCacheMb,
      ...(config.sharedDir ? { ringDir: config.sharedDir } : {}),
      ...(keychainKey ? { keychainKey } : {}),
      ...(config.encryptionKey ? { environmentKey: config.encryptionKey } : {}),
      warn: (message) => logger.warn(message),
    });
  } catch (err) {
    db.close();
    throw err;
  }
  const { cipher, ring } = protection;
  logger.info({ keySource: protection.source, activeKeyId: ring.activeKeyId }, 'data encryption ready');
  // Audio: in the data folder, or on the folder every instance of a clinic mounts.
  const blobs = openBlobStore(config, ring);
  let shared: PostgresStores | undefined;
  if (config.databaseUrl) {
    try {
      // Loaded only in clinic mode: the desktop never pays for the PostgreSQL client and queue.
      const { openPostgresStores } = await import('./store/pg/index.js');
      // The stores' ten connections, plus the job queue's (its LISTEN, polling and one per running job).
      shared = await openPostgresStores({ url: config.databaseUrl, cipher, blobs, poolSize: 14 + config.jobConcurrency });
    } catch (err) {
      db.close();
      throw err;
    }
    logger.info({ role: config.role }, 'clinic mode: account data in PostgreSQL');
  }
  const stores: ClindocStores = shared ?? createSqliteStores(db, {
    cipher,
    blobs,
    // Logged by the error's name only: an audit event names accounts and resources.
    onAuditError: (err) => logger.error({ errName: (err as Error)?.name }, 'audit events could not be written'),
  });
  // This process owns the SQLite file: Idempotency-Key claims still pending are its last run's.
  if (!shared) await stores.idempotency.abandonClaims?.();
  return { db, protection, blobs, stores, ...(shared ? { shared } : {}) };
}
