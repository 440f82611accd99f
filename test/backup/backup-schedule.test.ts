import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { backupName, backupTime, createBackupService, type BackupFolder } from '../../main/services/backup/backup-service.js';
import { DomainError } from '../../main/services/errors.js';
import { authHeaders } from '../security/helpers.js';
import { waitFor } from '../support/server.js';
import { dataOf, startOn, tempDirs } from './helpers.js';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** A folder in memory: the service's decisions are what is under test here, not the bytes. */
function memoryFolder(): BackupFolder & { files: Map<string, number>; release?: () => void; hold: boolean } {
  const files = new Map<string, number>();
  const folder = {
    files, hold: false, release: undefined as (() => void) | undefined,
    async write(name: string) {
      if (folder.hold) await new Promise<void>((resolve) => (folder.release = resolve));
      files.set(name, 1000);
      return { bytes: 1000, counts: { accounts: 1, notes: 0, transcriptions: 0, audioFiles: 0 } };
    },
    list: () => [...files].map(([name, bytes]) => ({ name, bytes })),
    remove: (name: string) => void files.delete(name),
  };
  return folder;
}

describe('the backup schedule and retention (service, moved clock)', () => {
  it('names backups by time, is due at once and then every interval, and keeps only the newest', async () => {
    let now = Date.UTC(2026, 10, 24, 9, 0, 0, 5);
    expect(backupName(now)).toBe('clindoc-backup-20261124T090000005Z.tar');
    expect(backupTime(backupName(now))).toBe(now);
    expect(backupTime('holiday-photos.tar')).toBeUndefined();

    const folder = memoryFolder();
    folder.files.set('notes-from-the-operator.txt', 5);
    const service = createBackupService({ folder, keep: 3, intervalHours: 24, now: () => now });
    expect(service.due()).toBe(true);
    expect(await service.runIfDue()).toMatchObject({ id: 'clindoc-backup-20261124T090000005Z.tar' });
    expect(service.due()).toBe(false);
    now += 23 * 3_600_000;
    expect(await service.runIfDue()).toBeUndefined();
    expect(service.list().settings.nextAt).toBe('2026-11-25T09:00:00.005Z');
    for (let day = 0; day < 5; day++) {
      now += 3_600_000 + day;
      expect(await service.runIfDue()).toBeDefined();
      now += 23 * 3_600_000;
    }
    const kept = service.list().items;
    expect(kept).toHaveLength(3);
    expect(kept.map((b) => b.createdAt)).toEqual([...kept.map((b) => b.createdAt)].sort().reverse());
    // Files that are not backups are never touched by retention.
    expect(folder.files.has('notes-from-the-operator.txt')).toBe(true);
  });

  it('writes one backup at a time, and says so when no folder is configured', async () => {
    const folder = memoryFolder();
    folder.hold = true;
    const service = createBackupService({ folder, keep: 5, intervalHours: 0 });
    expect(service.due()).toBe(false); // interval 0: only on request
    const first = service.create();
    await expect(service.create()).rejects.toMatchObject({ kind: 'conflict', message: expect.stringMatching(/already being written/) });
    folder.release!();
    await first;
    await service.idle();
    expect(folder.files.size).toBe(1);
    const none = createBackupService({ keep: 5, intervalHours: 24 });
    await expect(none.create()).rejects.toBeInstanceOf(DomainError);
    await expect(none.create()).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/CLINDOC_BACKUP_DIR/) });
    expect(none.due()).toBe(false);
  });
});

describe('automatic backups on a running server', () => {
  it('writes the first backup at start, and after a restart does not write another before it is due', async () => {
    const dataDir = dirs.make('auto');
    const backupDir = join(dirs.make('auto-backups'), 'nested');
    const env = { CLINDOC_BACKUP_DIR: backupDir, CLINDOC_BACKUP_INTERVAL_HOURS: '24', CLINDOC_BACKUP_KEEP: '2' };
    const s = await startOn(dataDir, env);
    const h = authHeaders(s.clindoc.localCredentials!);
    await waitFor(async () => (s.clindoc.backups.list().items.length === 1 ? true : undefined));
    const list = (await dataOf(s.base, '/v1/backups', h)) as { status: number; data: { items: Array<{ id: string; createdAt: string }>; settings: Record<string, unknown> } };
    expect(list.status).toBe(200);
    expect(list.data.settings).toEqual({
      folderConfigured: true, intervalHours: 24, keep: 2, nextAt: new Date(Date.parse(list.data.items[0]!.createdAt) + 86_400_000).toISOString(), folder: backupDir,
    });
    await s.clindoc.backups.idle();
    await s.close();

    const again = await startOn(dataDir, env);
    try {
      await again.clindoc.backupScheduler.tick();
      expect(readdirSync(backupDir).filter((n) => n.endsWith('.tar'))).toHaveLength(1);
      // Two more on request: retention keeps the newest two.
      for (let i = 0; i < 2; i++) expect((await fetch(`${again.base}/v1/backups`, { method: 'POST', headers: h })).status).toBe(201);
      const names = readdirSync(backupDir).filter((n) => n.endsWith('.tar'));
      expect(names).toHaveLength(2);
      expect(names).not.toContain(list.data.items[0]!.id);
      // Each backup request is in the audit trail of the account that asked.
      const trail = (await dataOf(again.base, '/v1/audit-events?limit=200', h)) as { data: { items: Array<{ resourceType: string; action: string }> } };
      expect(trail.data.items.filter((e) => e.resourceType === 'backup' && e.action === 'write')).toHaveLength(2);
    } finally {
      await again.close();
    }
  }, 60_000);

  it('answers 409 naming CLINDOC_BACKUP_DIR when no backup folder is configured', async () => {
    const s = await startOn(dirs.make('nofolder'));
    try {
      const h = authHeaders(s.clindoc.localCredentials!);
      const res = await fetch(`${s.base}/v1/backups`, { method: 'POST', headers: h });
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({ error: 409, message: expect.stringContaining('CLINDOC_BACKUP_DIR') });
      const { settings } = ((await dataOf(s.base, '/v1/backups', h)) as { data: { settings: { folderConfigured: boolean; folder: string | null } } }).data;
      expect(settings).toMatchObject({ folderConfigured: false, folder: null });
    } finally {
      await s.close();
    }
  });
});
