import { DomainError } from '../errors.js';

/** What one backup holds, for reports; no content. */
export interface BackupCounts {
  accounts: number;
  notes: number;
  transcriptions: number;
  audioFiles: number;
}

/** The folder backups are written to (implemented by main/store/backup-folder.ts). */
export interface BackupFolder {
  /** Writes a complete backup under `name`; it appears under that name only when whole. */
  write(name: string): Promise<{ bytes: number; counts: BackupCounts }>;
  /** Files in the folder (any name; the service picks out its own). */
  list(): Array<{ name: string; bytes: number }>;
  remove(name: string): void;
  /** Where the folder is, as the operator named it (shown to the operator so they know where to look). */
  location?: string;
}

/** A backup as the API lists it. */
export interface BackupView {
  /** File name in the backup folder (also what `clindoc restore` is given). */
  id: string;
  createdAt: string;
  bytes: number;
}

export interface BackupSettings {
  /** Whether CLINDOC_BACKUP_DIR names a folder; without one the API cannot write backups. */
  folderConfigured: boolean;
  /** Hours between automatic backups; 0 = only on request (CLINDOC_BACKUP_INTERVAL_HOURS). */
  intervalHours: number;
  /** Backups kept; older ones are deleted after each new one (CLINDOC_BACKUP_KEEP). */
  keep: number;
  /** When the next automatic backup is due; null when none is scheduled. */
  nextAt: string | null;
  /** The backup folder's path on the machine that runs the API; null when none is configured. */
  folder: string | null;
}

export interface BackupService {
  /** Writes a backup now and deletes those beyond `keep`. 409 when no folder is set or one is running. */
  create(): Promise<BackupView & { counts: BackupCounts }>;
  list(): { items: BackupView[]; settings: BackupSettings };
  /** Whether an automatic backup is due: none yet, or the newest is older than the interval. */
  due(): boolean;
  /** Runs the automatic backup when due (the scheduler's tick); undefined when not due. */
  runIfDue(): Promise<(BackupView & { counts: BackupCounts }) | undefined>;
  /** Resolves when no backup is being written (shutdown waits for it). */
  idle(): Promise<void>;
}

/** Backup files are named after their UTC creation time, so the folder sorts and dates itself. */
const NAME = /^clindoc-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.tar$/;

/** The file name of a backup made at `ms`. */
export const backupName = (ms: number): string => `clindoc-backup-${new Date(ms).toISOString().replace(/[-:.]/g, '')}.tar`;

/** The creation time a backup file's name carries; undefined for files that are not backups. */
export function backupTime(name: string): number | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, ms] = m.map(Number) as number[];
  const t = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * Backups on request and on a schedule, into one folder, with retention. The decisions (names,
 * what is due, what to delete, one backup at a time) are made here; the folder writes the bytes.
 */
export function createBackupService(deps: { folder?: BackupFolder; keep: number; intervalHours: number; now?: () => number }): BackupService {
  const now = deps.now ?? Date.now;
  const intervalMs = deps.intervalHours * 3_600_000;
  let running: Promise<unknown> | undefined;

  const backups = (): Array<BackupView & { at: number }> => {
    if (!deps.folder) return [];
    const out: Array<BackupView & { at: number }> = [];
    for (const f of deps.folder.list()) {
      const at = backupTime(f.name);
      if (at !== undefined) out.push({ id: f.name, createdAt: new Date(at).toISOString(), bytes: f.bytes, at });
    }
    return out.sort((a, b) => b.at - a.at);
  };
  const nextAt = (): number | undefined => {
    if (!deps.folder || intervalMs <= 0) return undefined;
    const newest = backups()[0];
    return newest ? newest.at + intervalMs : now();
  };

  const create = async (): Promise<BackupView & { counts: BackupCounts }> => {
    const folder = deps.folder;
    if (!folder) throw new DomainError('conflict', 'no backup folder is configured on this device (CLINDOC_BACKUP_DIR)');
    if (running) throw new DomainError('conflict', 'a backup is already being written; try again when it has finished');
    const work = (async () => {
      const existing = new Set(backups().map((b) => b.id));
      let at = now();
      while (existing.has(backupName(at))) at += 1;
      const name = backupName(at);
      const written = await folder.write(name);
      for (const old of backups().slice(Math.max(1, deps.keep))) folder.remove(old.id);
      return { id: name, createdAt: new Date(at).toISOString(), bytes: written.bytes, counts: written.counts };
    })();
    running = work;
    try {
      return await work;
    } finally {
      running = undefined;
    }
  };

  const due = (): boolean => {
    const next = nextAt();
    return next !== undefined && next <= now();
  };

  return {
    create,
    list() {
      const next = nextAt();
      return {
        items: backups().map(({ at: _at, ...view }) => view),
        settings: { folderConfigured: Boolean(deps.folder), intervalHours: deps.intervalHours, keep: deps.keep, nextAt: next === undefined ? null : new Date(next).toISOString(),
          folder: deps.folder ? (deps.folder.location ?? null) : null },
      };
    },
    due,
    async runIfDue() {
      if (running || !due()) return undefined;
      return create();
    },
    async idle() {
      await running?.catch(() => undefined);
    },
  };
}
