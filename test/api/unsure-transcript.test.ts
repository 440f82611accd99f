/**
 * Issue 27: a transcript's share of unsure words is kept with the visit (PATCH, GET, null when
 * unknown, range checked), and a note requested with a share from 0.3 opens its review list with a
 * `transcript` item; under it, or without it, no such item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedNote, startServer, type TestServer } from '../support/server.js';

const TRANSCRIPT = `[doctor] what brings you in today ?
[patient] a cough for three days and some fever .
[doctor] lungs are clear . we'll treat it as a viral bronchitis and see you in a week .`;

describe('unsure transcripts', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as { data: any; error?: number; message?: string } };
  };
  const noteWith = async (extra: Record<string, unknown>) => {
    const created = await call('POST', '/v1/notes', { transcript: TRANSCRIPT, ...extra });
    expect(created.status).toBe(202);
    const note = await finishedNote(s, created.body.data.noteId);
    expect(note.status).toBe('STATUS_DONE');
    return note;
  };

  it('keeps the share with the visit\'s transcript, null when unknown', async () => {
    const created = await call('POST', '/v1/visits', { transcript: 'typed by hand' });
    expect(created.body.data.transcriptUnsureShare).toBeNull();
    const saved = await call('PATCH', `/v1/visits/${created.body.data.id}`, { transcript: TRANSCRIPT, transcriptUnsureShare: 0.42 }, { 'If-Match': created.etag! });
    expect(saved.status).toBe(200);
    expect(saved.body.data.transcriptUnsureShare).toBe(0.42);
    // A change of another field keeps it; it is read back as saved.
    const again = await call('PATCH', `/v1/visits/${created.body.data.id}`, { encounterDate: '2026-11-27' }, { 'If-Match': saved.etag! });
    expect((await call('GET', `/v1/visits/${created.body.data.id}`)).body.data).toMatchObject({ transcript: TRANSCRIPT, transcriptUnsureShare: 0.42 });
    const cleared = await call('PATCH', `/v1/visits/${created.body.data.id}`, { transcript: 'pasted', transcriptUnsureShare: null }, { 'If-Match': again.etag! });
    expect(cleared.body.data.transcriptUnsureShare).toBeNull();
  });

  it('refuses a share outside 0..1', async () => {
    const visit = await call('POST', '/v1/visits', { transcriptUnsureShare: 1.5 });
    expect(visit.status).toBe(400);
    expect(visit.body).toEqual({ error: 400, message: expect.stringContaining('transcriptUnsureShare') });
    const note = await call('POST', '/v1/notes', { transcript: TRANSCRIPT, transcriptUnsureShare: -0.1 });
    expect(note.status).toBe(400);
  });

  it('opens the review list of a note written from a mostly unsure transcript with a transcript item', async () => {
    const unsure = await noteWith({ transcriptUnsureShare: 0.45 });
    const first = unsure.payload.json.review[0];
    expect(first).toMatchObject({ kind: 'transcript', action: 'marked', text: expect.stringContaining('45%') });
    expect(first.reason).toMatch(/unsure of 45% of the words/);
    // The same with includeJson: the item is in the structured note's review list too.
    const structured = await noteWith({ transcriptUnsureShare: 0.3, noteType: { type: 'soap', includeJson: true } });
    expect(structured.payload.json.review[0]).toMatchObject({ kind: 'transcript', text: expect.stringContaining('30%') });
  });

  it('adds no such item under the threshold or without a share', async () => {
    for (const extra of [{ transcriptUnsureShare: 0.29 }, {}]) {
      const note = await noteWith({ ...extra, noteType: { type: 'soap', includeJson: true } });
      expect((note.payload.json.review as { kind: string }[]).filter((r) => r.kind === 'transcript')).toEqual([]);
    }
  });
});
