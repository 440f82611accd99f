import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { startServer, type TestServer } from '../support/server.js';
import { authHeaders, markedWav } from './helpers.js';

const MARKER = 'OKAPIMARMOSET';
const DAY = 24 * 60 * 60 * 1000;

interface AuditItem { accountId: string; keyId: string | null; action: string; resourceType: string; resourceId: string | null; ip: string; outcome: string; status: number; actor: string; at: string; operation: string }

describe('audit trail', () => {
  let s: TestServer;
  let b: { accountId: string; apiKey: string; keyId: string };
  let keyId: string;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
    const other = await s.clindoc.accounts.createAccount('Clinic B');
    b = { accountId: other.account.id, apiKey: other.apiKey, keyId: other.keyId };
    keyId = (await s.clindoc.accounts.listKeys(s.creds.accountId))[0]!.id;
  });
  afterAll(() => s.close());

  const trail = async (creds: { accountId: string; apiKey: string }, query = ''): Promise<AuditItem[]> => {
    const res = await fetch(`${s.base}/v1/audit-events${query}`, { headers: authHeaders(creds) });
    expect(res.status).toBe(200);
    return (await res.json()).data.items as AuditItem[];
  };

  it('records who, what, when, from where and the outcome of reads, writes and deletes, without content', async () => {
    const h = s.headers();
    const before = Date.now();
    const noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: h, body: JSON.stringify({ transcript: `${MARKER} has a cough.` }) })).json()).data.noteId as string;
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: h })).status).toBe(200);
    await fetch(`${s.base}/v1/notes`, { headers: h });
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { method: 'DELETE', headers: h })).status).toBe(200);
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: h })).status).toBe(404);
    const template = { id: 'tpl-a', title: MARKER, sections: [{ id: 's', type: 'text', prompt: MARKER, properties: {} }] };
    await fetch(`${s.base}/v1/note-templates`, { method: 'POST', headers: h, body: JSON.stringify(template) });
    const upload = await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...h, 'content-type': 'audio/wav' }, body: markedWav(MARKER) })).json();
    await fetch(`${s.base}/v1/audio/transcriptions/${upload.id}`, { headers: h });

    const items = await trail(s.creds);
    const about = (id: string) => items.filter((e) => e.resourceId === id).map((e) => `${e.action}:${e.resourceType}:${e.outcome}:${e.status}`).reverse();
    expect(about(noteId)).toEqual(['write:note:success:202', 'read:note:success:200', 'delete:note:success:200', 'read:note:not_found:404']);
    expect(about('tpl-a')).toEqual([expect.stringMatching(/^write:note_template:success:20\d$/)]);
    expect(about(upload.id as string)).toEqual(['write:transcription:success:202', 'read:transcription:success:200']);
    expect(items.some((e) => e.action === 'list' && e.resourceType === 'note')).toBe(true);
    for (const e of items) {
      expect(e.accountId).toBe(s.creds.accountId);
      expect(e.keyId).toBe(keyId);
      expect(e.actor).toBe('api-key');
      expect(e.ip).toMatch(/127\.0\.0\.1/);
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(before - 1000);
    }
    // Ids and outcomes only: nothing of the transcript, template or audio, and never the key.
    const raw = JSON.stringify(items) + JSON.stringify(await s.query('SELECT * FROM audit_events'));
    expect(raw).not.toContain(MARKER);
    expect(raw).not.toContain(s.creds.apiKey);

    // Filtering and paging.
    expect((await trail(s.creds, `?resourceId=${noteId}`)).length).toBe(4);
    const page = await (await fetch(`${s.base}/v1/audit-events?limit=2`, { headers: h })).json();
    expect(page.data.items).toHaveLength(2);
    const next = await (await fetch(`${s.base}/v1/audit-events?limit=2&cursor=${page.data.nextCursor}`, { headers: h })).json();
    expect(next.data.items[0].id).not.toBe(page.data.items[1].id);
    expect((await fetch(`${s.base}/v1/audit-events?cursor=abc`, { headers: h })).status).toBe(400);
  });

  it("shows an account only its own trail, including its failed attempts on another account's ids", async () => {
    const noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: 'x' }) })).json()).data.noteId as string;
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: authHeaders(b) })).status).toBe(404);
    const mine = await trail(b);
    expect(mine.every((e) => e.accountId === b.accountId && e.keyId === b.keyId)).toBe(true);
    expect(mine.find((e) => e.resourceId === noteId)?.outcome).toBe('not_found');
    const theirs = await trail(s.creds, `?resourceId=${noteId}`);
    expect(theirs.map((e) => e.action)).toEqual(['write']);
  });

  it('is append-only: the database refuses updates and deletes of the trail', async () => {
    await expect(s.query('UPDATE audit_events SET outcome = ?', ['success'])).rejects.toThrow(/append-only/);
    await expect(s.query('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    expect((await s.query('SELECT id FROM audit_events')).length).toBeGreaterThan(0);
  });
});

describe('retention', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
  });
  afterAll(() => s.close());

  it('deletes notes, transcriptions and their audio files past the account retention, and keeps the rest', async () => {
    const h = s.headers();
    expect((await (await fetch(`${s.base}/v1/settings/retention`, { headers: h })).json()).data).toEqual({ days: 0, source: 'default' });
    expect((await fetch(`${s.base}/v1/settings/retention`, { method: 'PUT', headers: h, body: JSON.stringify({ days: -1 }) })).status).toBe(400);
    const set = await (await fetch(`${s.base}/v1/settings/retention`, { method: 'PUT', headers: h, body: JSON.stringify({ days: 7 }) })).json();
    expect(set.data).toEqual({ days: 7, source: 'account' });
    const other = await s.clindoc.accounts.createAccount('Keeps everything');
    const otherNote = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: authHeaders({ accountId: other.account.id, apiKey: other.apiKey }), body: JSON.stringify({ transcript: 'y' }) })).json()).data.noteId;

    const noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: h, body: JSON.stringify({ transcript: 'Old visit.' }) })).json()).data.noteId as string;
    const upload = await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...h, 'content-type': 'audio/wav' }, body: markedWav(MARKER) })).json();
    const blob = (await s.query<{ b: string }>('SELECT audio_blob AS b FROM transcriptions WHERE id = ?', [upload.id]))[0]!.b;
    const blobPath = `${s.dataDir}/blobs/${blob}`;
    expect(existsSync(blobPath)).toBe(true);

    // Six days on, nothing is due; eight days on, the account's records and audio are gone.
    expect(await s.clindoc.retention.sweep(Date.now() + 6 * DAY)).toEqual({ notes: 0, transcriptions: 0, visits: 0, blobs: 0 });
    expect(await s.clindoc.retention.sweep(Date.now() + 8 * DAY)).toEqual({ notes: 1, transcriptions: 1, visits: 0, blobs: 1 });
    expect(existsSync(blobPath)).toBe(false);
    expect((await fetch(`${s.base}/v1/notes/${noteId}`, { headers: h })).status).toBe(404);
    expect((await fetch(`${s.base}/v2/audio/transcriptions/${upload.id}`, { headers: h })).status).toBe(404);
    // The account with the default (0 = keep) still has its note.
    expect((await fetch(`${s.base}/v1/notes/${otherNote}`, { headers: authHeaders({ accountId: other.account.id, apiKey: other.apiKey }) })).status).toBe(200);
    // The deletions are in the trail, attributed to the retention job.
    const items = (await (await fetch(`${s.base}/v1/audit-events?resourceId=${upload.id}`, { headers: h })).json()).data.items as AuditItem[];
    expect(items.find((e) => e.actor === 'system:retention')).toMatchObject({ action: 'delete', outcome: 'success', keyId: null });
  });

  it('runs sweeps one at a time: two started together delete and record each item once', async () => {
    const h = s.headers(); // the account keeps 7 days (set above)
    const noteId = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: h, body: JSON.stringify({ transcript: 'Another old visit.' }) })).json()).data.noteId as string;
    const upload = await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...h, 'content-type': 'audio/wav' }, body: markedWav(MARKER) })).json();
    const at = Date.now() + 8 * DAY;
    const [first, second] = await Promise.all([s.clindoc.retention.sweep(at), s.clindoc.retention.sweep(at)]);
    expect(first).toEqual({ notes: 1, transcriptions: 1, visits: 0, blobs: 1 });
    expect(second).toEqual({ notes: 0, transcriptions: 0, visits: 0, blobs: 0 });
    for (const id of [noteId, upload.id as string]) {
      const items = (await (await fetch(`${s.base}/v1/audit-events?resourceId=${id}`, { headers: h })).json()).data.items as AuditItem[];
      expect(items.filter((e) => e.actor === 'system:retention')).toHaveLength(1);
    }
  });
});
