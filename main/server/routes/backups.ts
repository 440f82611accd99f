import type { RouteRegistry } from '../route-registry.js';
import type { BackupService } from '../../services/backup/backup-service.js';
import { BackupList, CreatedBackup } from '../../../shared/api/backups.js';

const RESTORE_NOTE =
  'There is no restore operation in the API, by decision: a restore replaces the database and audio of every account at once, which no one ' +
  "account's key may decide, and it cannot be done under a running server without cutting open sessions and jobs mid-write. Restore with " +
  '`clindoc restore FILE` while Clindoc is stopped; it refuses a damaged (cut short, checksum mismatch) or foreign (another installation\'s key) backup ' +
  'before touching the data folder.';

/** Backups of the whole installation into the operator's backup folder (extension: `/v1/backups`). */
export function registerBackupRoutes(registry: RouteRegistry, deps: { backups: BackupService }): void {
  const tags = ['Backups'];
  registry.add(
    {
      method: 'post', path: '/v1/backups', operationId: 'createBackup', tags, summary: 'Write a backup of this installation now',
      description:
        'Writes a consistent copy of the database (SQLite online backup, taken while requests keep being served) and of the audio files it refers to, ' +
        'encrypted, with a manifest of SHA-256 checksums, as one tar file in the folder named by CLINDOC_BACKUP_DIR; older backups beyond CLINDOC_BACKUP_KEEP are deleted. ' +
        'The file never leaves that folder through the API, so no account can read another account\'s data through a backup. ' +
        '409 when no backup folder is configured or a backup is already being written; 507 when the disk is full (nothing is left behind). ' + RESTORE_NOTE,
      envelope: 'standard', success: { status: 201, description: 'The backup written', schema: CreatedBackup }, errors: [409], operator: true,
    },
    () => deps.backups.create(),
  );
  registry.add(
    {
      method: 'get', path: '/v1/backups', operationId: 'listBackups', tags, summary: 'Backups in the backup folder and the automatic backup settings',
      description: RESTORE_NOTE,
      envelope: 'standard', success: { status: 200, description: 'Backups, newest first', schema: BackupList }, errors: [], operator: true,
    },
    () => deps.backups.list(),
  );
}
