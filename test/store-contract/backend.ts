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
import { createAccountStore } from '../../main/store/account-store.js';
import { createNoteStore } from '../../main/store/note-store.js';
import { createDocumentStore } from '../../main/store/document-store.js';
import { createTranscriptionStore } from '../../main/store/transcription-store.js';
import { createJobStore, type JobKinds } from '../../main/store/job-store.js';
import { createIdempotencyStore } from '../../main/store/idempotency-store.js';
import { createWebhookStore } from '../../main/store/webhook-store.js';
import { createAuditStore, createRetentionStore } from '../../main/store/audit-store.js';
import { createEngineSettingsStore } from '../../main/store/engine-settings-store.js';
import { createVisitStore } from '../../main/store/visit-store.js';
import { createStorageUsageStore } from '../../main/store/storage-usage-store.js';

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

/** The SQLite backend: a database file in a temp folder, stores built as main/composition.ts builds them. */
export async function openSqliteBackend(): Promise<StoreBackend> {
  const protection = openProtection();
  const { cipher, blobs } = protection;
  const db = openDatabase(join(protection.dir, 'clindoc.db'));
  const audit = createAuditStore(db);
  const stores: Stores = {
    accounts: createAccountStore(db),
    notes: createNoteStore(db, cipher),
    templates: createDocumentStore(db, 'note_templates', cipher),
    macros: createDocumentStore(db, 'macros', cipher),
    voiceAdaptation: createDocumentStore(db, 'voice_adaptation', cipher),
    transcriptions: createTranscriptionStore(db, cipher),
    jobs: createJobStore(db),
    idempotency: createIdempotencyStore(db, cipher),
    webhooks: createWebhookStore(db, cipher),
    audit,
    retention: createRetentionStore(db),
    engineSettings: createEngineSettingsStore(db),
    visits: createVisitStore(db, cipher),
    storageUsage: createStorageUsageStore(db, blobs),
  };
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
      audit.flush();
      db.close();
      protection.remove();
    },
  };
}
