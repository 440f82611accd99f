import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BackupFolder } from '../services/backup/backup-service.js';
import { writeBackup, type BackupSource } from './backup-write.js';

/**
 * The backup folder port over a directory on disk (owner-only). Backups are plain files the
 * operator can copy elsewhere and hand to `clindoc restore`.
 */
export function createBackupFolder(dir: string, source: BackupSource): BackupFolder {
  const pathOf = (name: string): string => {
    if (basename(name) !== name || name.startsWith('.')) throw new Error('invalid backup name');
    return join(dir, name);
  };
  return {
    async write(name) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const { manifest, bytes } = await writeBackup(source, pathOf(name));
      return { bytes, counts: manifest.counts };
    },
    list() {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      const out: Array<{ name: string; bytes: number }> = [];
      for (const name of names) {
        try {
          const s = statSync(join(dir, name));
          if (s.isFile()) out.push({ name, bytes: s.size });
        } catch {
          // removed meanwhile
        }
      }
      return out;
    },
    remove: (name) => rmSync(pathOf(name), { force: true }),
    location: dir,
  };
}
