import type { AuditStore } from '../services/audit/ports.js';
import { MODEL_PULL_JOB } from '../services/models/model-context.js';
import type { BlobStore } from '../services/storage.js';
import type { Stores } from '../services/stores.js';
import { createAccountStore } from './account-store.js';
import { createAuditStore, createRetentionStore } from './audit-store.js';
import type { FieldCipher } from './crypto/field-cipher.js';
import type { Db } from './database.js';
import { createDocumentStore } from './document-store.js';
import { createEngineSettingsStore } from './engine-settings-store.js';
import { createIdempotencyStore } from './idempotency-store.js';
import { createJobStore } from './job-store.js';
import { createNoteStore } from './note-store.js';
import { createStorageUsageStore } from './storage-usage-store.js';
import { createTranscriptionStore } from './transcription-store.js';
import { createVisitStore } from './visit-store.js';
import { createWebhookStore } from './webhook-store.js';

/** What `createSqliteStores` needs. */
export interface SqliteStoreOptions {
  /** The column cipher: patient data, secrets and an account's engine servers are sealed with it. */
  cipher: FieldCipher;
  /** Audio blobs (on this machine's disk), for the storage usage of audio. */
  blobs: Pick<BlobStore, 'pathOf' | 'exists'>;
  /** Hears an audit batch that could not be written (a full disk); its events are kept and retried. */
  onAuditError: (err: unknown) => void;
}

/** Every account-data store on SQLite; the audit trail batches its writes, so it can be flushed before the database closes. */
export type SqliteStores = Stores & { audit: AuditStore & { flush(): void } };

/**
 * Every account-data store on one SQLite database, the desktop's counterpart of
 * `openPostgresStores`: the app's composition and the store contract suite both build them here,
 * so the suite tests the stores the app runs. The database is opened (and migrated) and later
 * closed by the caller, who flushes `audit` first.
 */
export function createSqliteStores(db: Db, options: SqliteStoreOptions): SqliteStores {
  const { cipher, blobs } = options;
  return {
    accounts: createAccountStore(db),
    notes: createNoteStore(db, cipher),
    templates: createDocumentStore(db, 'note_templates', cipher),
    macros: createDocumentStore(db, 'macros', cipher),
    voiceAdaptation: createDocumentStore(db, 'voice_adaptation', cipher),
    transcriptions: createTranscriptionStore(db, cipher),
    // Model downloads share the table but run on their own runner (main/compose-models.ts), beside
    // notes and transcriptions instead of in front of them.
    jobs: createJobStore(db, { except: [MODEL_PULL_JOB] }),
    idempotency: createIdempotencyStore(db, cipher),
    webhooks: createWebhookStore(db, cipher),
    // Written in batches (issue 19); a batch that cannot be written is reported and retried.
    audit: createAuditStore(db, { onError: options.onAuditError }),
    retention: createRetentionStore(db),
    engineSettings: createEngineSettingsStore(db, cipher),
    visits: createVisitStore(db, cipher),
    storageUsage: createStorageUsageStore(db, blobs),
  };
}
