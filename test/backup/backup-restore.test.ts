import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKey } from '../../main/store/crypto/index.js';
import { BackupError, restoreBackup } from '../../main/store/backup-restore.js';
import { authHeaders } from '../security/helpers.js';
import { wavBytes } from '../support/audio.js';
import { runCli } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { KEY, OTHER_KEY, dataOf, startOn, tempDirs } from './helpers.js';

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

type Headers = Record<string, string>;
const post = async (base: string, path: string, headers: Headers, body: unknown): Promise<Record<string, any>> => {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
};
const upload = async (base: string, headers: Headers, seconds: number): Promise<string> => {
  const res = await fetch(`${base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: wavBytes(seconds, 16000, 440) });
  if (res.status !== 202) throw new Error(`upload: ${res.status}`);
  return ((await res.json()) as { id: string }).id;
};

/** Where an entry's data starts in a tar archive, and its size (walking the 512-byte headers). */
function entryOffset(tar: Buffer, name: string): { start: number; size: number } {
  for (let at = 0; at + 512 <= tar.length;) {
    const entry = tar.subarray(at, at + 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(tar.subarray(at + 124, at + 136).toString('ascii').replace(/\0/g, '').trim() || '0', 8);
    if (entry === name) return { start: at + 512, size };
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${name} not in the archive`);
}

/** Every read an integrator would make of what an account stores. */
async function readEverything(base: string, h: Headers): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of ['/v1/notes?limit=100', '/v2/audio/transcriptions?limit=100', '/v1/macro-library?limit=100', '/v1/note-templates?limit=100', '/v1/webhooks', '/v1/settings/retention', '/v1/storage']) {
    out[path] = await dataOf(base, path, h);
  }
  const ids = (path: string): string[] => ((out[path] as { data: { items: Array<{ id?: string; noteId?: string }> } }).data.items ?? []).map((i) => (i.id ?? i.noteId)!);
  for (const id of ids('/v1/notes?limit=100')) out[`/v1/notes/${id}`] = await dataOf(base, `/v1/notes/${id}`, h);
  for (const id of ids('/v2/audio/transcriptions?limit=100')) {
    out[`/v2/audio/transcriptions/${id}`] = await dataOf(base, `/v2/audio/transcriptions/${id}`, h);
    out[`/v1/audio/transcriptions/${id}`] = await dataOf(base, `/v1/audio/transcriptions/${id}`, h);
  }
  for (const id of ids('/v1/note-templates?limit=100')) out[`/v1/note-templates/${id}`] = await dataOf(base, `/v1/note-templates/${id}`, h);
  return out;
}

// Backups copy the SQLite data folder. A clinic server's account data is in PostgreSQL, backed up
// with the database's own tools (docs/deploy.md); there `clindoc backup` and `restore` refuse.
describe.skipIf(onPostgres)('backup and restore', () => {
  let backupFile = '';

  it('restores into a fresh data folder that answers every read exactly as the original did', async () => {
    const backupDir = dirs.make('backups');
    const original = await startOn(dirs.make('original'), { CLINDOC_BACKUP_DIR: backupDir, CLINDOC_BACKUP_INTERVAL_HOURS: '0' });
    const creds = original.clindoc.localCredentials!;
    const h = authHeaders(creds);
    try {
      for (const transcript of ['Patient has a cough for three days. No fever.', 'Follow-up for hypertension; blood pressure 128 over 82.']) {
        await post(original.base, '/v1/notes', h, { transcript, noteType: { type: 'soap' } });
      }
      await upload(original.base, h, 1);
      await post(original.base, '/v1/note-templates', h, { id: 'tpl-visit', title: 'Visit', sections: [{ id: 's', type: 'text', prompt: 'Summary', properties: {} }] });
      await post(original.base, '/v1/macro-library', h, { id: 'nce', examples: ['normal chest exam'], expansion_text: 'Lungs clear to auscultation.' });
      await original.clindoc.jobs.idle();
      const made = await post(original.base, '/v1/backups', h, {});
      expect(made.data).toMatchObject({ id: expect.stringMatching(/^clindoc-backup-\d{8}T\d{9}Z\.tar$/), counts: { accounts: 1, notes: 2, transcriptions: 1, audioFiles: 1 } });
      backupFile = join(backupDir, made.data.id as string);
      const listed = (await dataOf(original.base, '/v1/backups', h)) as { data: { items: Array<{ id: string; bytes: number }> } };
      expect(listed.data.items).toEqual([{ id: made.data.id, createdAt: made.data.createdAt, bytes: made.data.bytes }]);

      const before = await readEverything(original.base, h);
      expect(Object.keys(before).length).toBeGreaterThan(10);
      const fresh = join(dirs.make('fresh'), 'data');
      const report = await restoreBackup(backupFile, { dataDir: fresh, masterKey: parseKey(KEY)! });
      expect(report.counts).toEqual({ accounts: 1, notes: 2, transcriptions: 1, audioFiles: 1 });
      const restored = await startOn(fresh);
      try {
        expect(await readEverything(restored.base, h)).toEqual(before);
        // The audio itself came back, still encrypted and readable.
        expect(readdirSync(join(fresh, 'blobs'))).toHaveLength(1);
        expect(JSON.parse(readFileSync(join(fresh, 'local-credentials.json'), 'utf8'))).toEqual(creds);
      } finally {
        await restored.close();
      }
    } finally {
      await original.close();
    }
  }, 120_000);

  it('copies consistently while 100 writes run at once: everything acknowledged before is there, whole, with its jobs and audio', async () => {
    const backupDir = dirs.make('busy-backups');
    const s = await startOn(dirs.make('busy'), { CLINDOC_BACKUP_DIR: backupDir, CLINDOC_BACKUP_INTERVAL_HOURS: '0', CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_RATE_LIMIT: '100000' });
    const h = authHeaders(s.clindoc.localCredentials!);
    try {
      // A database of several megabytes, so SQLite's online backup copies it in many steps with requests in between.
      const long = 'The patient reports intermittent chest tightness on exertion. '.repeat(3000);
      for (let i = 0; i < 30; i++) await post(s.base, '/v1/notes', h, { transcript: `${i} ${long}` });
      expect(Number(s.clindoc.db.pragma('page_count', { simple: true }))).toBeGreaterThan(1500);

      const writes: Array<() => Promise<{ kind: string; id: string }>> = [];
      for (let i = 0; i < 100; i++) {
        if (i % 10 === 0) writes.push(async () => ({ kind: 'transcription', id: await upload(s.base, h, 0.5) }));
        else if (i % 3 === 0) writes.push(async () => ({ kind: 'note', id: (await post(s.base, '/v1/notes', h, { transcript: `Visit ${i}: ${long.slice(0, 20_000)}` })).data.noteId }));
        else if (i % 3 === 1) writes.push(async () => ({ kind: 'macro', id: (await post(s.base, '/v1/macro-library', h, { id: `m${i}`, examples: [`phrase ${i}`], expansion_text: `Expansion ${i}.` })).data.id }));
        else writes.push(async () => ({ kind: 'template', id: (await post(s.base, '/v1/note-templates', h, { id: `t${i}`, title: `T${i}`, sections: [{ id: 's', type: 'text', prompt: 'P', properties: {} }] })).data.id }));
      }
      const acked: Array<{ kind: string; id: string; at: number }> = [];
      let backupSentAt = Infinity;
      let backup: Promise<Record<string, any>> | undefined;
      await Promise.all(writes.map(async (write) => {
        const done = await write();
        acked.push({ ...done, at: performance.now() });
        if (acked.length === 30) {
          backupSentAt = performance.now();
          backup = post(s.base, '/v1/backups', h, {});
        }
      }));
      const made = await backup!;
      expect(acked).toHaveLength(100);
      const expected = await readEverything(s.base, h);

      const fresh = join(dirs.make('busy-fresh'), 'data');
      await restoreBackup(join(backupDir, made.data.id as string), { dataDir: fresh, masterKey: parseKey(KEY)! });
      const r = await startOn(fresh, { CLINDOC_JOB_CONCURRENCY: '0' });
      try {
        const got = await readEverything(r.base, h);
        // Whatever the copy holds is exactly what the original holds for it: no torn record.
        for (const [path, answer] of Object.entries(got)) {
          if (/\?|\/v1\/(storage|webhooks|settings)/.test(path)) continue;
          expect(answer, path).toEqual(expected[path]);
        }
        const present = (kind: string, id: string): boolean =>
          kind === 'note' ? got[`/v1/notes/${id}`] !== undefined
            : kind === 'transcription' ? got[`/v2/audio/transcriptions/${id}`] !== undefined
              : kind === 'template' ? got[`/v1/note-templates/${id}`] !== undefined
                : ((got['/v1/macro-library?limit=100'] as { data: { items: Array<{ id: string }> } }).data.items.some((m) => m.id === id));
        const before = acked.filter((w) => w.at < backupSentAt);
        expect(before.length).toBeGreaterThanOrEqual(30);
        for (const w of before) expect(present(w.kind, w.id), `${w.kind} ${w.id} acknowledged before the backup`).toBe(true);
        // Every accepted note still has its job, and every transcription its audio file.
        expect(r.clindoc.db.prepare('SELECT COUNT(*) AS n FROM notes n WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.resource_id = n.id)').get()).toEqual({ n: 0 });
        expect(r.clindoc.db.prepare("SELECT COUNT(*) AS n FROM transcriptions t WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.resource_id = t.id AND j.status = 'queued')").get()).toEqual({ n: 0 });
        for (const { b } of r.clindoc.db.prepare('SELECT audio_blob AS b FROM transcriptions').all() as Array<{ b: string }>) {
          expect(existsSync(join(fresh, 'blobs', b))).toBe(true);
        }
      } finally {
        await r.close();
      }
    } finally {
      await s.close();
    }
  }, 180_000);

  it('refuses a cut-short, altered, foreign or non-Clindoc file with a clear error, leaving the data folder as it was', async () => {
    expect(backupFile).not.toBe('');
    const work = dirs.make('refusals');
    const target = join(work, 'data');
    const master = parseKey(KEY)!;
    const refusal = async (file: string, key = master): Promise<BackupError> => {
      const err = await restoreBackup(file, { dataDir: target, masterKey: key }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(BackupError);
      expect(existsSync(target)).toBe(false);
      return err as BackupError;
    };
    const bytes = readFileSync(backupFile);

    const cut = join(work, 'cut.tar');
    copyFileSync(backupFile, cut);
    truncateSync(cut, Math.floor(bytes.length * 0.6));
    expect(await refusal(cut)).toMatchObject({ reason: 'damaged', message: expect.stringMatching(/damaged/) });

    // Cut exactly after the manifest: a valid tar to the archive reader, so only the manifest notices.
    const manifestLength = Number.parseInt(bytes.subarray(124, 136).toString('ascii').trim(), 8);
    const boundary = join(work, 'boundary.tar');
    writeFileSync(boundary, bytes.subarray(0, 512 + Math.ceil(manifestLength / 512) * 512));
    expect(await refusal(boundary)).toMatchObject({ reason: 'damaged', message: expect.stringMatching(/missing/) });

    // One bit flipped in the middle of the encrypted database: its checksum no longer matches.
    const flipped = join(work, 'flipped.tar');
    const altered = Buffer.from(bytes);
    const db = entryOffset(bytes, 'database.enc');
    altered[db.start + (db.size >> 1)] = altered[db.start + (db.size >> 1)]! ^ 0x01;
    writeFileSync(flipped, altered);
    expect(await refusal(flipped)).toMatchObject({ reason: 'damaged', message: expect.stringMatching(/database\.enc does not match its checksum/) });

    expect(await refusal(backupFile, parseKey(OTHER_KEY)!)).toMatchObject({ reason: 'foreign', message: expect.stringMatching(/another Clindoc installation/) });

    const text = join(work, 'notes.txt');
    writeFileSync(text, 'not a backup at all');
    expect(await refusal(text)).toMatchObject({ reason: 'format', message: expect.stringMatching(/not a Clindoc backup/) });

    // An existing database is never overwritten unless asked; with --replace it is moved aside.
    await restoreBackup(backupFile, { dataDir: target, masterKey: master });
    const again = await restoreBackup(backupFile, { dataDir: target, masterKey: master }).catch((e: unknown) => e);
    expect(again).toMatchObject({ reason: 'target' });
    const replaced = await restoreBackup(backupFile, { dataDir: target, masterKey: master, replace: true });
    expect(replaced.previous && existsSync(join(replaced.previous, 'clindoc.db'))).toBe(true);
  }, 60_000);

  it('clindoc backup copies a running installation; clindoc restore rebuilds it and explains a refusal', async () => {
    const dataDir = dirs.make('cli');
    const s = await startOn(dataDir);
    const h = authHeaders(s.clindoc.localCredentials!);
    try {
      const noteId = (await post(s.base, '/v1/notes', h, { transcript: 'Sore throat for two days.' })).data.noteId as string;
      await s.clindoc.jobs.idle();
      const file = join(dirs.make('cli-out'), 'visit-backup.tar');
      const made = await runCli(['backup', file, '--json'], { CLINDOC_DATA_DIR: dataDir, CLINDOC_ENCRYPTION_KEY: KEY });
      expect(made.stderr).toBe('');
      expect(JSON.parse(made.stdout)).toMatchObject({ file, counts: { notes: 1, accounts: 1 } });

      const fresh = join(dirs.make('cli-fresh'), 'data');
      const restored = await runCli(['restore', file, '--data-dir', fresh], { CLINDOC_DATA_DIR: fresh, CLINDOC_ENCRYPTION_KEY: KEY });
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/restored the backup of .* 1 notes/);
      const r = await startOn(fresh);
      try {
        expect(await dataOf(r.base, `/v1/notes/${noteId}`, h)).toEqual(await dataOf(s.base, `/v1/notes/${noteId}`, h));
      } finally {
        await r.close();
      }

      truncateSync(file, 2000);
      const refused = await runCli(['restore', file], { CLINDOC_DATA_DIR: join(dirs.make('cli-refused'), 'data'), CLINDOC_ENCRYPTION_KEY: KEY });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/restore refused: this backup is damaged/);
      const keyless = await runCli(['restore', file], { CLINDOC_DATA_DIR: join(dirs.make('cli-keyless'), 'data'), CLINDOC_ENCRYPTION_KEY: '' });
      expect(keyless.stderr).toMatch(/no encryption key to open the backup with/);
    } finally {
      await s.close();
    }
  }, 120_000);
});
