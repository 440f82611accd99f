import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire schemas of backups (`/v1/backups`, an extension recorded in OpenAPI): the installation's
 * backups in the operator's folder and the automatic schedule. Settings > Data shows them.
 */

export const Backup = Type.Object({
  id: Type.String({ description: 'File name in the backup folder; give it to `clindoc restore`.' }),
  createdAt: Type.String({ format: 'date-time' }),
  bytes: Type.Integer({ minimum: 0 }),
});
export const BackupCounts = Type.Object({
  accounts: Type.Integer(), notes: Type.Integer(), transcriptions: Type.Integer(), audioFiles: Type.Integer(),
}, { description: 'What the backup holds, across every account of this installation.' });
export const CreatedBackup = Type.Object({ ...Backup.properties, counts: BackupCounts });
export const BackupList = Type.Object({
  items: Type.Array(Backup, { description: 'Backups in the backup folder, newest first.' }),
  settings: Type.Object({
    folderConfigured: Type.Boolean({ description: 'false when CLINDOC_BACKUP_DIR is not set: backups cannot be written through the API.' }),
    intervalHours: Type.Integer({ description: 'Hours between automatic backups (CLINDOC_BACKUP_INTERVAL_HOURS); 0 = only on request.' }),
    keep: Type.Integer({ description: 'Backups kept; older ones are deleted after each new one (CLINDOC_BACKUP_KEEP).' }),
    nextAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the next automatic backup is due.' }),
    folder: Type.Union([Type.String(), Type.Null()], {
      description: 'The backup folder (CLINDOC_BACKUP_DIR) on the machine that runs Clindoc, so the operator knows where to copy backups from; null when none is set. Only the operator role reads it.',
    }),
  }),
});
export type BackupList = Static<typeof BackupList>;
export type CreatedBackup = Static<typeof CreatedBackup>;
