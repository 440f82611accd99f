import type { Logger } from 'pino';
import type { BackupService } from '../services/backup/backup-service.js';
import { DomainError } from '../services/errors.js';

export interface BackupScheduler {
  start(): void;
  stop(): void;
  /** One check: writes the automatic backup when it is due (tests call this with a moved clock). */
  tick(): Promise<void>;
}

/**
 * The automatic backup. Durable without a table of its own: what is due is read from the backup
 * folder (the newest file's time), so a backup missed while Clindoc was closed runs at the next
 * start, and a restart never makes an extra one. Checks at start and then every `checkEveryMs`.
 */
export function createBackupScheduler(deps: { backups: BackupService; logger: Logger; checkEveryMs?: number }): BackupScheduler {
  const every = deps.checkEveryMs ?? 15 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    try {
      const made = await deps.backups.runIfDue();
      if (made) deps.logger.info({ backup: made.id, bytes: made.bytes, ...made.counts }, 'automatic backup written');
    } catch (err) {
      // Counts and kinds only: a backup failure must never put data or paths of patients in the log.
      deps.logger.error({ errKind: err instanceof DomainError ? err.kind : (err as NodeJS.ErrnoException)?.code ?? 'internal' }, 'automatic backup failed; it is retried at the next check');
    }
  };
  return {
    tick,
    start() {
      if (timer) return;
      void tick();
      timer = setInterval(() => void tick(), every);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
