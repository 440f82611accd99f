/**
 * Part of the one composition: the records kept about the records. The audit trail, visits (which
 * link notes and transcriptions), backups on request and on schedule, and the retention sweep.
 */
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import { createAuditService, type AuditService } from './services/audit/audit-service.js';
import { createVisitService, type VisitService } from './services/visits/visit-service.js';
import type { VisitLinks } from './services/visits/ports.js';
import { signatureOf } from './services/notes/note-signing.js';
import { createBackupService, type BackupService } from './services/backup/backup-service.js';
import { createBackupFolder } from './store/backup-folder.js';
import { createBackupScheduler, type BackupScheduler } from './jobs/backup-scheduler.js';
import { createRetentionSweeper, type RetentionSweeper } from './jobs/retention.js';

export interface ComposedRecords {
  audit: AuditService;
  visits: VisitService;
  /** Backups into CLINDOC_BACKUP_DIR (on request and on schedule). */
  backups: BackupService;
  backupScheduler: BackupScheduler;
  retention: RetentionSweeper;
}

/** What a visit asks of its notes and transcriptions: whether one exists, and where a note stands. */
function visitLinks(stores: ComposedStores['stores']): VisitLinks {
  return {
    note: async (accountId, id) => (await stores.notes.get(accountId, id)) !== undefined,
    transcription: async (accountId, id) => (await stores.transcriptions.get(accountId, id)) !== undefined,
    noteState: async (accountId, id) => {
      const note = await stores.notes.get(accountId, id);
      if (!note) return undefined;
      if (note.status !== 'STATUS_DONE') return { status: note.status === 'STATUS_FAILED' ? 'failed' : 'pending', at: note.createdAt };
      return { status: signatureOf(note).status, at: note.signedAt ?? note.completedAt ?? note.createdAt };
    },
  };
}

export function composeRecords(config: ClindocConfig, logger: Logger, storage: ComposedStores, appVersion: string): ComposedRecords {
  const { stores, shared, db, blobs } = storage;
  const audit = createAuditService({
    store: stores.audit, retention: stores.retention, defaultRetentionDays: config.retentionDays,
    onError: (err) => logger.error({ errName: (err as Error)?.name }, 'audit event could not be written'),
  });
  const visits = createVisitService({ store: stores.visits, links: visitLinks(stores) });
  const backups = createBackupService({
    // Backups of a clinic's PostgreSQL are the database's own (pg_dump, docs/deploy.md).
    ...(config.backupDir && !shared ? { folder: createBackupFolder(config.backupDir, { db, dataDir: config.dataDir, ring: storage.protection.ring, appVersion }) } : {}),
    keep: config.backupKeep, intervalHours: config.backupIntervalHours,
  });
  const retention = createRetentionSweeper({
    retention: stores.retention, notes: stores.notes, transcriptions: stores.transcriptions, visits: stores.visits, blobs, idempotency: stores.idempotency,
    audit, logger, defaultDays: config.retentionDays, intervalMs: config.retentionSweepSeconds * 1000,
  });
  return { audit, visits, backups, backupScheduler: createBackupScheduler({ backups, logger }), retention };
}
