import type { Logger } from 'pino';
import type { BlobStore, IdempotencyStore, NoteStore, TranscriptionStore } from '../services/storage.js';
import type { RetentionStore } from '../services/audit/ports.js';
import type { AuditService } from '../services/audit/audit-service.js';

export interface RetentionSweepResult {
  notes: number;
  transcriptions: number;
  visits: number;
  /** Audio files removed from blob storage. */
  blobs: number;
}

export interface RetentionSweeper {
  /** Deletes everything past its account's retention at `at` (default now); safe to call at any time. */
  sweep(at?: number): Promise<RetentionSweepResult>;
  start(): void;
  /** Stops the timer; resolves once any sweep under way has finished (the database may then close). */
  stop(): Promise<void>;
}

/** Idempotency replays hold whole responses (text-to-json answers are patient data): 24 h at most. */
const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;
const noop = (): void => undefined;

/**
 * The retention job: on a timer, deletes visits, notes, transcriptions and their audio files created
 * before their account's retention cut-off, and records each deletion in the audit trail as the
 * system actor. The row goes first, then its audio file, so no record ever points at audio that
 * retention already removed.
 */
export function createRetentionSweeper(deps: {
  retention: RetentionStore;
  notes: NoteStore;
  transcriptions: TranscriptionStore;
  visits: { delete(accountId: string, id: string): Promise<boolean> };
  blobs: BlobStore;
  idempotency: IdempotencyStore;
  audit: AuditService;
  logger: Logger;
  /** Days for accounts without their own setting (CLINDOC_RETENTION_DAYS); 0 keeps. */
  defaultDays: number;
  /** Sweep interval (CLINDOC_RETENTION_SWEEP_SECONDS). */
  intervalMs: number;
  now?: () => number;
}): RetentionSweeper {
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  // Sweeps run one at a time: two at once (a slow tick and a call) would find the same rows and
  // record their deletions twice. `sweeping` settles when the last one queued has finished.
  let sweeping: Promise<void> | undefined;

  const sweepOnce = async (at?: number): Promise<RetentionSweepResult> => {
    const result: RetentionSweepResult = { notes: 0, transcriptions: 0, visits: 0, blobs: 0 };
    const t = at ?? now();
    await deps.idempotency.purgeOlderThan(t - IDEMPOTENCY_KEEP_MS);
    for (;;) {
      const expired = await deps.retention.findExpired(t, deps.defaultDays, BATCH);
      if (!expired.length) break;
      for (const item of expired) {
        const base = { accountId: item.accountId, keyId: null, actor: 'system:retention', action: 'delete' as const, operation: null, ip: null, requestId: null };
        if (item.type === 'note') {
          if (await deps.notes.delete(item.accountId, item.id)) result.notes++;
          deps.audit.record({ ...base, resourceType: 'note', resourceId: item.id, outcome: 'success', status: null });
          continue;
        }
        if (item.type === 'visit') {
          if (await deps.visits.delete(item.accountId, item.id)) result.visits++;
          deps.audit.record({ ...base, resourceType: 'visit', resourceId: item.id, outcome: 'success', status: null });
          continue;
        }
        if (await deps.transcriptions.delete(item.accountId, item.id)) result.transcriptions++;
        if (item.audioBlob && (await deps.blobs.exists(item.audioBlob))) {
          await deps.blobs.delete(item.audioBlob);
          result.blobs++;
        }
        deps.audit.record({ ...base, resourceType: 'transcription', resourceId: item.id, outcome: 'success', status: null });
      }
      if (expired.length < BATCH) break;
    }
    if (result.notes || result.transcriptions || result.visits) deps.logger.info({ ...result }, 'retention sweep deleted expired records');
    return result;
  };
  const sweep = (at?: number): Promise<RetentionSweepResult> => {
    const run = (sweeping ?? Promise.resolve()).then(() => sweepOnce(at));
    const settled: Promise<void> = run.then(noop, noop).then(() => {
      if (sweeping === settled) sweeping = undefined;
    });
    sweeping = settled;
    return run;
  };

  return {
    sweep,
    start() {
      if (timer) return;
      const tick = (): void => {
        if (sweeping) return; // the one running covers this tick
        void sweep().catch((err: unknown) => deps.logger.error({ errName: (err as Error)?.name }, 'retention sweep failed'));
      };
      tick();
      timer = setInterval(tick, deps.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await sweeping;
    },
  };
}
