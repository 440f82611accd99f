import type { AuditStore, RetentionStore } from './audit/ports.js';
import type {
  AccountStore, DocumentStore, IdempotencyStore, JobStore, NoteStore, TranscriptionStore, WebhookStore,
} from './storage.js';
import type { StorageUsageReader } from './storage-usage/ports.js';
import type { EngineSettingsStore } from './transcriptions/engine-settings.js';
import type { VisitStore } from './visits/ports.js';

/** Every storage port a database backend provides (SQLite or PostgreSQL), as the composition wires them. */
export interface Stores {
  accounts: AccountStore;
  notes: NoteStore;
  templates: DocumentStore;
  macros: DocumentStore;
  /** Each account's voice adaptation state (recordings and model by blob key). */
  voiceAdaptation: DocumentStore;
  transcriptions: TranscriptionStore;
  jobs: JobStore;
  idempotency: IdempotencyStore;
  webhooks: WebhookStore;
  audit: AuditStore;
  retention: RetentionStore;
  engineSettings: EngineSettingsStore;
  visits: VisitStore;
  storageUsage: StorageUsageReader;
}
