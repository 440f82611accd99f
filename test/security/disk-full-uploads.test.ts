/**
 * Issue 29, point 2: every upload path on a really full disk (a tmpfs, filled to the last byte or
 * to a few megabytes) answers 507, takes back the space it used, leaves the process running, and
 * is accepted again once space returns. Restore of a backup checks the space it will need before
 * writing, so a small archive that expands past the free space is "disk full", never "corrupt".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { wavBytes } from '../support/audio.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';
import { canMount, fill, mountTinyDisk, type TinyDisk } from '../support/tiny-disk.js';
import { BackupError, restoreBackup } from '../../main/store/backup-restore.js';
import { parseKey } from '../../main/store/crypto/master-key.js';

const MB = 1024 * 1024;
const freeBytes = (dir: string): number => {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
};
/** Every file under `dir`, as relative paths. */
const filesUnder = (dir: string): string[] => (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
  .filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
/** Files this process holds open under `dir` (Linux: /proc/self/fd). */
const openUnder = (dir: string): string[] => readdirSync('/proc/self/fd').flatMap((fd) => {
  try {
    const target = readlinkSync(`/proc/self/fd/${fd}`);
    return target.startsWith(`${dir}/`) ? [target] : [];
  } catch {
    return [];
  }
});
/** Names a write in progress leaves: blob temp files, backup staging and partial archives, code-set temp files. */
const LEFTOVER = /(\.part$|\.partial$|(^|\/)\.backup-|\.tmp$|\.clindoc-restore-)/;

const orderFile = (): string => [['R05', false, 'Cough'], ['R051', true, 'Acute cough'], ['I10', true, 'Essential (primary) hypertension']]
  .map(([code, billable, title], i) => `${String(i + 1).padStart(5, '0')} ${String(code).padEnd(7)} ${billable ? 1 : 0} ${String(title).padEnd(60)} ${title}`).join('\n');

/** Sends the head and part of an upload's body on a raw socket, then closes the socket. */
async function abandonedUpload(s: TestServer, contentType: string, part: Buffer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect(s.port, '127.0.0.1', () => {
      const headers = Object.entries(s.headers({ 'content-type': contentType, 'content-length': String(10 * MB) })).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`POST /v2/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n${headers}\r\n`);
      socket.write(part, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

const MOUNT = 'a tmpfs; needs root or passwordless sudo to mount, skipped where mounting is not permitted';
const mountable = !onPostgres && canMount();

describe.skipIf(!mountable)(`uploads on a really full disk (48 MB ${MOUNT})`, () => {
  let s: TestServer;
  let disk: TinyDisk | undefined;
  const data = (): string => join(disk!.dir, 'data');
  const backups = (): string => join(disk!.dir, 'backups');
  const raw = (seconds: number): Promise<Response> =>
    fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(seconds, 16000, 300) });
  const multipart = (seconds: number): Promise<Response> => {
    const form = new FormData();
    form.set('audio', new Blob([wavBytes(seconds, 16000, 300)], { type: 'audio/wav' }), 'visit.wav');
    const { 'content-type': _json, ...headers } = s.headers();
    return fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers, body: form });
  };
  const codeImport = (): Promise<Response> => {
    const form = new FormData();
    form.set('order', new Blob([orderFile()]), 'icd10cm-order-2026.txt');
    const { 'content-type': _json, ...headers } = s.headers();
    return fetch(`${s.base}/v1/coding/editions`, { method: 'POST', headers, body: form });
  };
  const post = (path: string, body: unknown): Promise<Response> => fetch(`${s.base}${path}`, { method: 'POST', headers: s.headers(), body: JSON.stringify(body) });
  const long = `The patient reports a dry cough for three days without fever. `.repeat(2000);
  const expectDiskFull = async (res: Response): Promise<void> => {
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: 507, message: expect.stringMatching(/^the disk is full/) });
  };
  const leftovers = (): string[] => [...filesUnder(data()), ...filesUnder(backups()).map((f) => `backups/${f}`)].filter((f) => LEFTOVER.test(f));

  beforeAll(async () => {
    disk = mountTinyDisk(48);
    s = await startServer({ CLINDOC_DATA_DIR: data(), CLINDOC_BACKUP_DIR: backups(), CLINDOC_BACKUP_INTERVAL_HOURS: '0', CLINDOC_RATE_LIMIT: '100000' });
    // Nothing is transcribed here: the jobs would only add CPU time to a test of the disk.
    await s.clindoc.jobs.stop();
  });
  afterAll(async () => {
    await s?.close();
    disk?.unmount();
  });

  it('answers 507 to raw and multipart audio, a backup, a code-set import, a note and a visit; gives the space back; survives; accepts them all again', async () => {
    // Five megabytes of audio already stored, so a backup needs more room than is left below.
    expect((await raw(160)).status).toBe(202);
    const blobsBefore = filesUnder(join(data(), 'blobs'));

    // Two megabytes left: each write starts, runs out of room part way, and must give its part back.
    const spare = 2 * MB;
    const filler = fill(disk!.dir, spare);
    const room = freeBytes(disk!.dir);
    // SQLite may take a few pages for the audit trail of each request; a partial upload would take megabytes.
    const slack = 512 * 1024;
    await expectDiskFull(await raw(300));
    expect(freeBytes(disk!.dir)).toBeGreaterThan(room - slack);
    await expectDiskFull(await multipart(300));
    expect(freeBytes(disk!.dir)).toBeGreaterThan(room - slack);
    await expectDiskFull(await post('/v1/backups', {}));
    expect(freeBytes(disk!.dir)).toBeGreaterThan(room - slack);
    expect(filesUnder(backups())).toEqual([]);

    // Not a byte left: the small writes fail too.
    const filler2 = fill(disk!.dir, 0, 'filler-2');
    await expectDiskFull(await codeImport());
    await expectDiskFull(await post('/v1/notes', { transcript: long }));
    await expectDiskFull(await post('/v1/visits', { transcript: long }));
    expect(leftovers()).toEqual([]);
    expect(filesUnder(join(data(), 'blobs'))).toEqual(blobsBefore);
    expect(s.logs.join('\n')).not.toContain('dry cough');

    // Clients that go away part way through their uploads on the full disk: the process goes on,
    // and what their writes began is removed (the mount could not be unmounted otherwise).
    await abandonedUpload(s, 'audio/wav', Buffer.from(wavBytes(30)));
    const boundary = 'x-boundary';
    await abandonedUpload(s, `multipart/form-data; boundary=${boundary}`, Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
      Buffer.from(wavBytes(30)),
    ]));
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    await waitFor(() => (leftovers().length === 0 ? true : undefined));
    // No refused write still holds a file open (a deleted file held open keeps its space).
    await waitFor(() => (openUnder(disk!.dir).every((f) => !LEFTOVER.test(f) && !f.includes('/blobs/')) ? true : undefined));
    expect((await fetch(`${s.base}/v1/notes`, { headers: s.headers() })).status).toBe(200);

    // Space again: everything refused above is accepted.
    rmSync(filler);
    rmSync(filler2);
    expect((await raw(10)).status).toBe(202);
    expect((await multipart(10)).status).toBe(202);
    expect((await post('/v1/notes', { transcript: long })).status).toBe(202);
    expect((await post('/v1/visits', { transcript: long })).status).toBe(201);
    expect((await codeImport()).status).toBe(201);
    expect((await post('/v1/backups', {})).status).toBe(201);
    expect(leftovers()).toEqual([]);
  }, 120_000);
});

describe.skipIf(!mountable)(`restore onto a small disk (48 MB ${MOUNT})`, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'clindoc-restore-src-'));
  const masterKey = parseKey('a'.repeat(64))!;
  let restoreDisk: TinyDisk | undefined;
  beforeAll(() => {
    restoreDisk = mountTinyDisk(48);
  });
  afterAll(() => {
    restoreDisk?.unmount();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses a small archive that would expand past the free space as "disk full" before writing it, and leaves the disk as it was', async () => {
    // 200 MB of zeros in a gzip-compressed tar of a few hundred kilobytes (a sparse file: it takes no room here).
    const big = join(scratch, 'blobs', '00000000-0000-0000-0000-000000000000');
    mkdirSync(join(scratch, 'blobs'));
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 200 * MB);
    closeSync(fd);
    writeFileSync(join(scratch, 'manifest.json'), '{}');
    const bomb = join(scratch, 'bomb.tar');
    await tar.c({ cwd: scratch, gzip: true, file: bomb, portable: true }, ['manifest.json', 'blobs/00000000-0000-0000-0000-000000000000']);
    rmSync(big);

    const dataDir = join(restoreDisk!.dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'kept.txt'), 'the folder as it was');
    const free = freeBytes(restoreDisk!.dir);
    const refusal = await restoreBackup(bomb, { dataDir, masterKey, replace: true }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as BackupError).reason).toBe('space');
    expect((refusal as Error).message).toMatch(/^the disk is full: restoring this backup needs about \d+ MB/);
    expect((refusal as Error).message).not.toMatch(/corrupt|damaged/);
    // Nothing written, nothing left: the staging folder is gone and the free space is what it was.
    expect(readdirSync(restoreDisk!.dir).sort()).toEqual(['data']);
    expect(filesUnder(dataDir)).toEqual(['kept.txt']);
    expect(freeBytes(restoreDisk!.dir)).toBeGreaterThanOrEqual(free - 64 * 1024);
  }, 60_000);

  it('refuses a real backup that does not fit as "disk full", and restores it once space returns', async () => {
    const backupDir = join(scratch, 'backups');
    const s = await startServer({ CLINDOC_BACKUP_DIR: backupDir, CLINDOC_BACKUP_INTERVAL_HOURS: '0', CLINDOC_ENCRYPTION_KEY: 'a'.repeat(64), CLINDOC_JOB_CONCURRENCY: '0' });
    let backup: string;
    try {
      // About 8 MB of audio in the backup.
      const upload = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(250, 16000, 300) });
      expect(upload.status).toBe(202);
      const made = await fetch(`${s.base}/v1/backups`, { method: 'POST', headers: s.headers(), body: '{}' });
      expect(made.status).toBe(201);
      backup = join(backupDir, ((await made.json()) as { data: { id: string } }).data.id);
    } finally {
      await s.close();
    }

    const dataDir = join(restoreDisk!.dir, 'restored');
    const filler = fill(restoreDisk!.dir, 12 * MB);
    const refusal = await restoreBackup(backup, { dataDir, masterKey }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as BackupError).reason).toBe('space');
    expect((refusal as Error).message).toMatch(new RegExp(`^the disk is full: restoring this backup needs about \\d+ MB beside ${restoreDisk!.dir}, and \\d+ MB are free`));
    expect(readdirSync(restoreDisk!.dir).filter((n) => n !== 'filler' && n !== 'data')).toEqual([]);

    rmSync(filler);
    const report = await restoreBackup(backup, { dataDir, masterKey });
    expect(report.counts).toMatchObject({ accounts: 1, transcriptions: 1, audioFiles: 1 });
    expect(filesUnder(join(dataDir, 'blobs'))).toHaveLength(1);
  }, 120_000);
});
