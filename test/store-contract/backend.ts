import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobStore, WebhookStore } from '../../main/services/storage.js';
import type { Stores } from '../../main/services/stores.js';
import { openKeyRing } from '../../main/store/crypto/key-ring.js';
import { createFieldCipher, type FieldCipher } from '../../main/store/crypto/field-cipher.js';
import { createFileBlobStore, type EncryptedBlobStore } from '../../main/store/blob-store.js';
import { openDatabase } from '../../main/store/database.js';
import { createJobStore, type JobKinds } from '../../main/store/job-store.js';
import { createWebhookStore } from '../../main/store/webhook-store.js';
import { createSqliteStores } from '../../main/store/sqlite-stores.js';

/** One database behind the storage ports, with what the contract needs to look past them. */
export interface StoreBackend {
  stores: Stores;
  cipher: FieldCipher;
  blobs: EncryptedBlobStore;
  /**
   * A second job store on the same database that takes only some kinds, as another process
   * would open it; on PostgreSQL it holds no instance lease, so its claims count as a dead process's.
   */
  jobStore(kinds: JobKinds): JobStore;
  /** A second webhook store on the same database, as another process (since gone) would open it. */
  webhookStore(): WebhookStore;
  /** The value of `column` as the database holds it, in the one row matching `where` (undefined: no row). */
  raw(table: string, column: string, where: Record<string, string>): Promise<unknown>;
  /** Runs one statement that takes no parameters, written in SQL both databases accept. */
  exec(statement: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh data folder with a key ring, its column cipher and an encrypted blob folder. */
export function openProtection(): { dir: string; cipher: FieldCipher; blobs: EncryptedBlobStore; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-contract-'));
  const ring = openKeyRing(join(dir, 'keyring.json'), randomBytes(32));
  return {
    dir, cipher: createFieldCipher(ring), blobs: createFileBlobStore(join(dir, 'blobs'), ring),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The SQLite backend: a database file in a temp folder, with the stores main/compose-stores.ts
 * builds (the same `createSqliteStores`, with a real key ring and cipher as the app has).
 */
export async function openSqliteBackend(): Promise<StoreBackend> {
  const protection = openProtection();
  const { cipher, blobs } = protection;
  const db = openDatabase(join(protection.dir, 'clindoc.db'));
  // The app logs an audit batch it could not write; here that is a failure, reported at close.
  const auditErrors: unknown[] = [];
  const stores = createSqliteStores(db, { cipher, blobs, onAuditError: (err) => auditErrors.push(err) });
  const { audit } = stores;
  return {
    stores, cipher, blobs,
    jobStore: (kinds) => createJobStore(db, kinds),
    webhookStore: () => createWebhookStore(db, cipher),
    async raw(table, column, where) {
      audit.flush();
      const keys = Object.keys(where);
      const row = db.prepare(`SELECT ${column} AS v FROM ${table} WHERE ${keys.map((k) => `${k} = ?`).join(' AND ')}`).get(...keys.map((k) => where[k])) as
        | { v: unknown }
        | undefined;
      return row?.v;
    },
    async exec(statement) {
      audit.flush();
      db.exec(statement);
    },
    async close() {
      try {
        audit.flush();
      } finally {
        db.close();
        protection.remove();
      }
      if (auditErrors.length) throw new AggregateError(auditErrors, 'audit events could not be written');
    },
  };
}
