/**
 * Signed means signed, through the API (issue 27.3): a signed note's text cannot be replaced
 * (409, signing.test.ts), and it cannot be dropped from its visit either: a PATCH whose `notes`
 * leave a signed note out is a 409 with the contract's error body, while a draft may be dropped and
 * a new version added beside the signed one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';

describe('a signed note stays in its visit', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as { data: any; error?: number; message?: string } };
  };
  const written = async (transcript: string): Promise<{ noteId: string; etag: string }> => {
    const noteId = (await call('POST', '/v1/notes', { transcript })).body.data.noteId as string;
    const done = await waitFor(async () => {
      const n = await call('GET', `/v1/notes/${noteId}`);
      return n.body.data.status === 'STATUS_DONE' ? n : undefined;
    }, 120_000);
    return { noteId, etag: done.etag! };
  };

  it('refuses a change that drops a signed note (409), keeps it, and takes a new version beside it', async () => {
    const first = await written('Doctor: how is the cough? Patient: better. Plan: stop the syrup.');
    const draft = await written('Doctor: any fever? Patient: no.');
    const created = await call('POST', '/v1/visits', { notes: [{ noteId: first.noteId, version: 1 }, { noteId: draft.noteId, version: 1 }] });
    expect(created.status).toBe(201);
    const visitId = created.body.data.id as string;

    // A draft may leave the visit.
    const dropDraft = await call('PATCH', `/v1/visits/${visitId}`, { notes: [{ noteId: first.noteId, version: 1 }] }, { 'If-Match': created.etag! });
    expect(dropDraft.status).toBe(200);

    expect((await call('POST', `/v1/notes/${first.noteId}/sign`, { signer: 'Dr. Ada Quill' }, { 'If-Match': first.etag })).status).toBe(200);
    const dropSigned = await call('PATCH', `/v1/visits/${visitId}`, { notes: [] }, { 'If-Match': dropDraft.etag! });
    expect(dropSigned.status).toBe(409);
    expect(dropSigned.body).toEqual({ error: 409, message: `notes: signed note ${first.noteId} stays in its visit; send it in notes` });
    const replaced = await call('PATCH', `/v1/visits/${visitId}`, { notes: [{ noteId: draft.noteId, version: 1 }] }, { 'If-Match': dropDraft.etag! });
    expect(replaced.status).toBe(409);
    expect((await call('GET', `/v1/visits/${visitId}`)).body.data.notes.map((n: { noteId: string }) => n.noteId)).toEqual([first.noteId]);

    // A new version goes beside it; other fields change as before.
    const beside = await call('PATCH', `/v1/visits/${visitId}`, { notes: [{ noteId: first.noteId, version: 2 }, { noteId: draft.noteId, version: 1 }], transcript: 'x' }, { 'If-Match': dropDraft.etag! });
    expect(beside.status).toBe(200);
    expect(beside.body.data.notes.map((n: { noteId: string }) => n.noteId)).toEqual([first.noteId, draft.noteId]);
    expect((await call('PATCH', `/v1/visits/${visitId}`, { transcript: 'y' }, { 'If-Match': beside.etag! })).status).toBe(200);
  }, 180_000);

  it('says so in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/v1/visits/{visitId}']!.patch!.responses)).toContain('409');
  });
});
