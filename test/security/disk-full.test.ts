import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { insufficientStorage, isOutOfSpace } from '../../main/services/errors.js';
import { wavBytes } from '../support/audio.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';
import { canMount, fill, mountTinyDisk, type TinyDisk } from '../support/tiny-disk.js';

type Note = { status: string };
const noteStatus = async (s: TestServer, id: string): Promise<string> => ((await (await fetch(`${s.base}/v1/notes/${id}`, { headers: s.headers() })).json()).data as Note).status;
const postNote = (s: TestServer, transcript: string): Promise<Response> =>
  fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript }) });
const jobOf = (s: TestServer, resourceId: string): { status: string; attempts: number; last_error: string | null } =>
  s.clindoc.db.prepare('SELECT status, attempts, last_error FROM jobs WHERE resource_id = ?').get(resourceId) as { status: string; attempts: number; last_error: string | null };

/** A long visit, so its note and its row need many new database pages. */
const visit = (n: number): string => `Visit ${n}. ${'The patient reports a dry cough for three days without fever, and mild wheeze at night. '.repeat(300)}`;

describe('the full-disk error kind', () => {
  it('recognises the file system\'s and SQLite\'s "no room" codes, also as a cause, and nothing else', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']) {
      expect(isOutOfSpace(Object.assign(new Error('x'), { code }))).toBe(true);
      expect(isOutOfSpace(new Error('wrapped', { cause: Object.assign(new Error('x'), { code }) }))).toBe(true);
    }
    for (const code of ['ENOENT', 'SQLITE_BUSY', 'EACCES', undefined]) expect(isOutOfSpace(Object.assign(new Error('x'), { code }))).toBe(false);
    expect(isOutOfSpace(insufficientStorage())).toBe(true);
    expect(insufficientStorage().status).toBe(507);
  });
});

// Fills the SQLite file (max_page_count) and reads its job table: a PostgreSQL server's account
// data and jobs are in the database, not in the data folder.
describe.skipIf(onPostgres)('a full database (SQLite max_page_count: real SQLITE_FULL, no root needed)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('answers writes 507 with the error body, keeps serving reads, keeps accepted jobs without using their attempts, and recovers', async () => {
    await s.clindoc.jobs.stop();
    const accepted: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await postNote(s, visit(i));
      expect(res.status).toBe(202);
      accepted.push((await res.json()).data.noteId);
    }
    const pages = s.clindoc.db.pragma('page_count', { simple: true }) as number;
    s.clindoc.db.pragma(`max_page_count = ${pages}`);

    const refused = await postNote(s, visit(9));
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({ error: 507, message: expect.stringMatching(/^the disk is full: this was not saved/) });
    expect(s.logs.some((l) => l.includes('write refused: the disk is full'))).toBe(true);
    expect(s.logs.join('\n')).not.toContain('dry cough');
    // Reads go on, and nothing was half-saved: the refused note is not listed.
    const list = await fetch(`${s.base}/v1/notes`, { headers: s.headers() });
    expect(list.status).toBe(200);
    expect(((await list.json()).data.items as Array<{ id: string }>).map((n) => n.id).sort()).toEqual([...accepted].sort());

    // The accepted notes' jobs run, cannot save their notes, and wait for room instead of failing.
    await s.clindoc.jobs.start();
    await waitFor(async () => (accepted.every((id) => jobOf(s, id).last_error === 'waiting for disk space') ? true : undefined));
    for (const id of accepted) {
      expect(await noteStatus(s, id)).not.toBe('STATUS_FAILED');
      expect(jobOf(s, id)).toMatchObject({ status: 'queued', attempts: 0 });
    }
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);

    // Room again: the waiting notes are written, and new work is accepted.
    s.clindoc.db.pragma('max_page_count = 4294967294');
    await waitFor(async () => ((await Promise.all(accepted.map((id) => noteStatus(s, id)))).every((st) => st === 'STATUS_DONE') ? true : undefined));
    expect((await postNote(s, visit(10))).status).toBe(202);
  }, 60_000);
});

// Mounted in the describe's beforeAll, so a run filtered to other tests leaves no mount behind.
let disk: TinyDisk | undefined;

// Fills the disk under the data folder and reads the SQLite job table; with PostgreSQL only audio is
// kept in that folder, while notes and jobs are in the database on its own disk. This once spun a
// core and stopped answering: on a disk full to the last byte the job claim handed out a job it had
// not written (test/jobs/full-disk-claims.test.ts), and the runner claimed it again without end.
describe.skipIf(onPostgres || !canMount())('a really full disk (a 32 MB tmpfs holding the data folder; needs root or passwordless sudo to mount)', () => {
  let s: TestServer;
  beforeAll(async () => {
    disk = mountTinyDisk(32);
    s = await startServer({ CLINDOC_DATA_DIR: join(disk!.dir, 'data') });
  });
  afterAll(async () => {
    await s?.close();
    disk?.unmount();
  });

  it('refuses uploads and notes with 507, keeps the accepted transcription and note, survives, and finishes them when space returns', async () => {
    await s.clindoc.jobs.stop();
    const upload = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(1, 16000, 300) });
    expect(upload.status).toBe(202);
    const transcriptionId = ((await upload.json()) as { id: string }).id;
    const noteRes = await postNote(s, visit(1));
    expect(noteRes.status).toBe(202);
    const noteId = (await noteRes.json()).data.noteId as string;

    const filler = fill(disk!.dir);
    const audio = await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(2, 16000, 300) });
    expect(audio.status).toBe(507);
    expect(await audio.json()).toEqual({ error: 507, message: expect.stringMatching(/disk is full/) });
    const note = await postNote(s, visit(2));
    expect(note.status).toBe(507);
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).status).toBe(200);

    await s.clindoc.jobs.start();
    await waitFor(async () => (s.logs.some((l) => l.includes('background jobs wait for space')) ? true : undefined));
    expect(await noteStatus(s, noteId)).not.toBe('STATUS_FAILED');
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);

    rmSync(filler);
    await waitFor(async () => ((await noteStatus(s, noteId)) === 'STATUS_DONE' ? true : undefined), 60_000);
    await waitFor(async () => {
      const t = (await (await fetch(`${s.base}/v2/audio/transcriptions/${transcriptionId}`, { headers: s.headers() })).json()) as { status: string };
      return t.status === 'completed' ? true : undefined;
    }, 60_000);
    expect((await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: s.headers({ 'content-type': 'audio/wav' }), body: wavBytes(1, 16000, 300) })).status).toBe(202);
  }, 120_000);
});
