/**
 * Draft, sign, amend over HTTP: a finished note is a draft that can be edited (If-Match guarded),
 * signing makes it read-only (409 with the contract's error body), later changes are addenda;
 * the signer and time are in the audit trail; the FHIR export says preliminary, final, amended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { buildDocumentReference } from '../../shared/export/fhir-document-reference.js';
import type { NoteView } from '../../shared/api/schemas.js';

const TRANSCRIPT = 'Doctor: What brings you in? Patient: A cough for three days. Doctor: Lungs are clear. Plan: fluids and rest.';
const ADDENDUM = 'Chest X-ray reviewed later the same day: no consolidation (zanzibar-marker).';

describe('draft, sign, amend', () => {
  let s: TestServer;
  let noteId: string;
  beforeAll(async () => {
    s = await startServer();
    noteId = await finishedNote(s);
  });
  afterAll(() => s?.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as { data: any; error?: number; message?: string } };
  };

  it('serves a finished note as a draft at version 1, with the version as ETag', async () => {
    const got = await call('GET', `/v1/notes/${noteId}`);
    expect(got.status).toBe(200);
    expect(got.etag).toBe('"1"');
    expect(got.body.data).toMatchObject({ status: 'STATUS_DONE', version: 1, signature: { status: 'draft' }, addenda: [] });
  });

  it('edits a draft only with the current version in If-Match', async () => {
    const missing = await call('PUT', `/v1/notes/${noteId}`, { markdown: '# Edited' });
    expect(missing.status).toBe(428);
    expect(missing.body).toEqual({ error: 428, message: expect.stringMatching(/If-Match/) });
    const stale = await call('PUT', `/v1/notes/${noteId}`, { markdown: '# Edited' }, { 'If-Match': '"7"' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toBe(412);
    const ok = await call('PUT', `/v1/notes/${noteId}`, { markdown: '# Assessment\n\nViral cough, edited by the physician.' }, { 'If-Match': '"1"' });
    expect(ok.status).toBe(200);
    expect(ok.etag).toBe('"2"');
    expect(ok.body.data).toMatchObject({ version: 2, payload: { markdown: '# Assessment\n\nViral cough, edited by the physician.' } });
    // The tab that still holds version 1 cannot overwrite that edit.
    expect((await call('PUT', `/v1/notes/${noteId}`, { markdown: '# Older tab' }, { 'If-Match': '"1"' })).status).toBe(412);
    expect((await call('GET', `/v1/notes/${noteId}`)).body.data.payload.markdown).toContain('edited by the physician');
  });

  it('exports a draft as FHIR docStatus preliminary', async () => {
    const note = (await call('GET', `/v1/notes/${noteId}`)).body.data as NoteView;
    expect(exported(note).docStatus).toBe('preliminary');
  });

  it('signs the version the physician read, then refuses edits with 409 and the contract error body', async () => {
    expect((await call('POST', `/v1/notes/${noteId}/sign`, { signer: 'Dr. Ana Lopez' }, { 'If-Match': '"1"' })).status).toBe(412);
    const before = Date.now();
    const signed = await call('POST', `/v1/notes/${noteId}/sign`, { signer: '  Dr. Ana Lopez ' }, { 'If-Match': '"2"' });
    expect(signed.status).toBe(200);
    expect(signed.body.data.signature).toEqual({ status: 'signed', signedBy: 'Dr. Ana Lopez', signedAt: expect.any(Number) });
    expect(signed.body.data.signature.signedAt).toBeGreaterThanOrEqual(before);
    expect(signed.etag).toBe('"3"');

    const edit = await call('PUT', `/v1/notes/${noteId}`, { markdown: '# Changed after signing' }, { 'If-Match': '"3"' });
    expect(edit.status).toBe(409);
    expect(edit.body).toEqual({ error: 409, message: expect.stringMatching(/signed note is read-only/) });
    expect((await call('POST', `/v1/notes/${noteId}/sign`, { signer: 'Someone Else' })).status).toBe(409);
    const note = (await call('GET', `/v1/notes/${noteId}`)).body.data as NoteView;
    expect(note.payload?.markdown).toContain('edited by the physician');
    const doc = exported(note);
    expect(doc.docStatus).toBe('final');
    expect(doc.authenticator).toEqual({ display: 'Dr. Ana Lopez' });
  });

  it('adds addenda to a signed note: amended, the signed text unchanged, the addendum in the FHIR document', async () => {
    const added = await call('POST', `/v1/notes/${noteId}/addenda`, { text: ADDENDUM, author: 'Dr. Ana Lopez' });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ id: expect.any(String), text: ADDENDUM, author: 'Dr. Ana Lopez', createdAt: expect.any(Number) });
    const note = (await call('GET', `/v1/notes/${noteId}`)).body.data as NoteView;
    expect(note.signature.status).toBe('amended');
    expect(note.addenda.map((a) => a.text)).toEqual([ADDENDUM]);
    expect(note.payload?.markdown).not.toContain('zanzibar');
    const doc = exported(note);
    expect(doc.docStatus).toBe('amended');
    const text = Buffer.from(doc.content[0]!.attachment.data!, 'base64').toString('utf8');
    expect(text).toContain('edited by the physician');
    // Local time with its zone, and the addendum's own signature (not UTC ISO).
    expect(text).toMatch(/## Addendum, \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+\n\nChest X-ray reviewed[^]*\*Addendum electronically signed by Dr\. Ana Lopez on \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+\*/);
    expect(text).not.toMatch(/T\d{2}:\d{2}:\d{2}Z/);
  });

  it('records the signature and the addendum in the audit trail with the name and time', async () => {
    const trail = (await call('GET', `/v1/audit-events?resourceId=${noteId}`)).body.data.items as { action: string; signer?: string | null; at: string; outcome: string }[];
    const sign = trail.find((e) => e.action === 'sign' && e.outcome === 'success');
    const amend = trail.find((e) => e.action === 'amend' && e.outcome === 'success');
    expect(sign).toMatchObject({ signer: 'Dr. Ana Lopez', at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(amend).toMatchObject({ signer: 'Dr. Ana Lopez' });
    // A refused signature is recorded as rejected, without a signer.
    expect(trail.filter((e) => e.action === 'sign' && e.outcome === 'rejected').every((e) => !e.signer)).toBe(true);
    expect(trail.some((e) => e.action === 'sign' && e.outcome === 'rejected')).toBe(true);
  });

  it('refuses an addendum on a draft, and a signature without a name', async () => {
    const draft = await finishedNote(s);
    expect((await call('POST', `/v1/notes/${draft}/addenda`, { text: 'x', author: 'Dr. A' })).status).toBe(409);
    expect((await call('POST', `/v1/notes/${draft}/sign`, { signer: '   ' })).status).toBe(400);
    expect((await call('POST', `/v1/notes/${draft}/sign`, {})).status).toBe(400);
  });

  it('answers 404 to another account for every change, and keeps addenda encrypted at rest', async () => {
    const other = await s.clindoc.accounts.createAccount('Clinic B');
    const b = { 'X-API-KEY': other.apiKey, 'X-ACCOUNT-ID': other.account.id };
    expect((await call('POST', `/v1/notes/${noteId}/sign`, { signer: 'Mallory' }, b)).status).toBe(404);
    expect((await call('POST', `/v1/notes/${noteId}/addenda`, { text: 'x', author: 'Mallory' }, b)).status).toBe(404);
    expect((await call('PUT', `/v1/notes/${noteId}`, { markdown: 'x' }, { ...b, 'If-Match': '"4"' })).status).toBe(404);
    expect(await s.storedContaining('zanzibar-marker')).toEqual([]);
  });

  it('documents the new operations and their errors in OpenAPI', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string }[] }>> };
    expect(Object.keys(doc.paths['/v1/notes/{noteId}']!)).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    expect(Object.keys(doc.paths['/v1/notes/{noteId}']!.put!.responses)).toEqual(expect.arrayContaining(['200', '409', '412', '428']));
    expect(doc.paths['/v1/notes/{noteId}']!.put!.parameters.map((p) => p.name)).toContain('If-Match');
    expect(doc.paths['/v1/notes/{noteId}/sign']!.post).toBeDefined();
    expect(doc.paths['/v1/notes/{noteId}/addenda']!.post).toBeDefined();
  });
});

function exported(note: NoteView) {
  return buildDocumentReference({ markdown: note.payload!.markdown, noteId: note.id, signature: note.signature, addenda: note.addenda });
}

async function finishedNote(s: TestServer): Promise<string> {
  const created = await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT }) })).json();
  const id = created.data.noteId as string;
  await waitFor(async () => {
    const body = await (await fetch(`${s.base}/v1/notes/${id}`, { headers: s.headers() })).json();
    return body.data.status === 'STATUS_DONE' ? true : undefined;
  });
  return id;
}
