/**
 * Visits over HTTP: create, read, list (newest first, search by patient name or text), autosave
 * with PATCH guarded by If-Match (a change from another window is a 412, never overwritten),
 * delete; account isolation (404); the content encrypted at rest; retention and "delete all".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';

const PATIENT = 'Zebulon Quixote-Marsh';

describe('visits', () => {
  let s: TestServer;
  let other: Record<string, string>;
  beforeAll(async () => {
    s = await startServer();
    const b = await s.clindoc.accounts.createAccount('Clinic B');
    other = { 'X-API-KEY': b.apiKey, 'X-ACCOUNT-ID': b.account.id };
  });
  afterAll(() => s?.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: s.headers(headers), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, etag: res.headers.get('etag'), body: (await res.json()) as { data: any; error?: number; message?: string } };
  };

  it('creates, reads, autosaves field by field and deletes a visit', async () => {
    const created = await call('POST', '/v1/visits', { patient: { name: PATIENT, dateOfBirth: '1961-04-02' }, encounterDate: '2026-11-20' });
    expect(created.status).toBe(201);
    expect(created.etag).toBe('"1"');
    const visit = created.body.data;
    expect(visit).toMatchObject({
      id: expect.any(String), version: 1, patient: { name: PATIENT, dateOfBirth: '1961-04-02' }, encounterDate: '2026-11-20',
      dictation: { text: '' }, transcript: '', noteOptions: {}, recordings: [], notes: [], codes: [],
    });
    const pieces = [{ kind: 'text', id: 1, utterance: 1, text: 'Cough for three days. ' }, { kind: 'macro', id: 2, macroId: 'nce', original: 'normal chest exam', expansion: 'Lungs clear.' }];
    const saved = await call('PATCH', `/v1/visits/${visit.id}`, { dictation: { text: 'Cough for three days. Lungs clear.', pieces } }, { 'If-Match': '"1"' });
    expect(saved.status).toBe(200);
    expect(saved.etag).toBe('"2"');
    const again = await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'Doctor: what brings you in?', codes: [{ system: 'ICD-10-CM', code: 'R05.9', display: 'Cough' }] }, { 'If-Match': saved.etag! });
    expect(again.body.data.version).toBe(3);
    const got = await call('GET', `/v1/visits/${visit.id}`);
    expect(got.etag).toBe('"3"');
    // Fields not sent are kept: the patient from the start, the dictation from the first save.
    expect(got.body.data).toMatchObject({ patient: { name: PATIENT }, dictation: { text: 'Cough for three days. Lungs clear.', pieces }, transcript: 'Doctor: what brings you in?' });
    expect(got.body.data.codes).toEqual([{ system: 'ICD-10-CM', code: 'R05.9', display: 'Cough' }]);
    expect(got.body.data.updatedAt).toBeGreaterThanOrEqual(got.body.data.createdAt);

    expect((await call('DELETE', `/v1/visits/${visit.id}`)).status).toBe(200);
    expect((await call('GET', `/v1/visits/${visit.id}`)).status).toBe(404);
    expect((await call('DELETE', `/v1/visits/${visit.id}`)).status).toBe(404);
  });

  it('refuses a save made on an old version (another window) with 412, and one without If-Match with 428', async () => {
    const { data: visit } = (await call('POST', '/v1/visits', { transcript: 'first' })).body;
    const tabA = await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'typed in window A' }, { 'If-Match': '"1"' });
    expect(tabA.status).toBe(200);
    const tabB = await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'typed in window B' }, { 'If-Match': '"1"' });
    expect(tabB.status).toBe(412);
    expect(tabB.body).toEqual({ error: 412, message: expect.stringMatching(/another window/) });
    const bare = await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'no version' });
    expect(bare.status).toBe(428);
    expect(bare.body.error).toBe(428);
    expect((await call('GET', `/v1/visits/${visit.id}`)).body.data.transcript).toBe('typed in window A');
  });

  it('lists newest first and finds visits by patient name (any case and accents) or by what was said', async () => {
    const a = (await call('POST', '/v1/visits', { patient: { name: 'José Álvarez' }, dictation: { text: 'Knee pain after a fall.' } })).body.data;
    const b = (await call('POST', '/v1/visits', { patient: { name: 'Mary Smith' }, transcript: 'Patient: my knee hurts since Tuesday.' })).body.data;
    const c = (await call('POST', '/v1/visits', { patient: { name: 'Ann Lee' }, dictation: { text: 'Annual physical, no complaints.' } })).body.data;
    const list = (await call('GET', '/v1/visits?limit=3')).body.data;
    expect(list.items.map((v: { id: string }) => v.id)).toEqual([c.id, b.id, a.id]);
    expect(list.items[0]).toMatchObject({ patient: { name: 'Ann Lee' }, preview: 'Annual physical, no complaints.', notes: 0, recordings: 0 });
    expect(list.items[0].dictation).toBeUndefined();

    const ids = async (q: string, limit = 20) => (await call('GET', `/v1/visits?q=${encodeURIComponent(q)}&limit=${limit}`)).body.data;
    expect((await ids('jose alvarez')).items.map((v: { id: string }) => v.id)).toEqual([a.id]);
    expect((await ids('KNEE')).items.map((v: { id: string }) => v.id)).toEqual([b.id, a.id]);
    expect((await ids('knee tuesday')).items.map((v: { id: string }) => v.id)).toEqual([b.id]);
    expect((await ids('gout')).items).toEqual([]);
    // Search pages like a list: one at a time, the cursor carries on where the last page stopped.
    const first = await ids('knee', 1);
    expect(first.items.map((v: { id: string }) => v.id)).toEqual([b.id]);
    const second = (await call('GET', `/v1/visits?q=knee&limit=1&cursor=${first.nextCursor}`)).body.data;
    expect(second.items.map((v: { id: string }) => v.id)).toEqual([a.id]);
    expect((await call('GET', '/v1/visits?q=knee&cursor=not-a-cursor')).status).toBe(400);
  });

  it('finds visits by the patient\'s whole date of birth, alone or with words', async () => {
    const born = (await call('POST', '/v1/visits', { patient: { name: 'Ida Brandt', dateOfBirth: '1956-03-04' }, dictation: { text: 'Follow-up of gout.' } })).body.data;
    const swapped = (await call('POST', '/v1/visits', { patient: { name: 'Olaf Brandt', dateOfBirth: '1956-04-03' }, dictation: { text: 'Gout again, born 1956.' } })).body.data;
    const ids = async (query: string) => (await call('GET', `/v1/visits?${query}`)).body.data.items.map((v: { id: string }) => v.id);
    expect(await ids('dateOfBirth=1956-03-04')).toEqual([born.id]);
    expect(await ids('dateOfBirth=1956-04-03&q=brandt')).toEqual([swapped.id]);
    expect(await ids('dateOfBirth=1956-03-04&q=olaf')).toEqual([]);
    expect(await ids('q=brandt')).toEqual([swapped.id, born.id]);
    const bad = await call('GET', '/v1/visits?dateOfBirth=04/03/1956');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(400);
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    expect(doc.paths['/v1/visits']!.get.parameters.map((p) => p.name)).toContain('dateOfBirth');
  });

  it('lists each visit with its newest note\'s status and time, read from the note (signed through the API too)', async () => {
    const noteId = (await call('POST', '/v1/notes', { transcript: 'Doctor: how is the knee? Patient: better since the physiotherapy.' })).body.data.noteId as string;
    const written = await waitFor(async () => {
      const n = await call('GET', `/v1/notes/${noteId}`);
      return n.body.data.status === 'STATUS_DONE' ? n : undefined;
    }, 120_000);
    const { data: visit } = (await call('POST', '/v1/visits', { patient: { name: 'Nora Status' }, notes: [{ noteId, version: 1 }] })).body;
    const { data: empty } = (await call('POST', '/v1/visits', { patient: { name: 'Nora Empty' } })).body;
    const listed = async (id: string) => (await call('GET', '/v1/visits?q=nora')).body.data.items.find((v: { id: string }) => v.id === id);
    expect(await listed(empty.id)).toMatchObject({ latestNote: null, signedNotes: 0 });
    const draft = await listed(visit.id);
    expect(draft).toMatchObject({ latestNote: { noteId, status: 'draft' }, signedNotes: 0 });
    expect(draft.latestNote.at).toBeGreaterThanOrEqual(draft.createdAt - 60_000);

    const signed = await call('POST', `/v1/notes/${noteId}/sign`, { signer: 'Dr. Ada Quill' }, { 'If-Match': written.etag! });
    expect(signed.status).toBe(200);
    const after = await listed(visit.id);
    expect(after).toMatchObject({ latestNote: { noteId, status: 'signed', at: signed.body.data.signature.signedAt }, signedNotes: 1 });
    // A deleted note is no longer counted.
    await call('DELETE', `/v1/notes/${noteId}`);
    expect(await listed(visit.id)).toMatchObject({ latestNote: null, signedNotes: 0, notes: 1 });
  });

  it('links only the account\'s own notes and transcriptions', async () => {
    const note = (await call('POST', '/v1/notes', { transcript: 'Patient reports a headache for two days.' })).body.data.noteId as string;
    const theirs = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: { ...other, 'content-type': 'application/json' }, body: JSON.stringify({ transcript: 'Other clinic.' }) })).json()).data.noteId as string;
    const { data: visit } = (await call('POST', '/v1/visits', { notes: [{ noteId: note, version: 1 }] })).body;
    expect(visit.notes).toEqual([{ noteId: note, version: 1 }]);
    const foreign = await call('PATCH', `/v1/visits/${visit.id}`, { notes: [{ noteId: note, version: 1 }, { noteId: theirs, version: 1 }] }, { 'If-Match': '"1"' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('notes[1].noteId: no such note');
    expect((await call('POST', '/v1/visits', { recordings: [{ transcriptionId: 'nope' }] })).status).toBe(400);
    // A note deleted later does not block saving the visit that still names it.
    await call('DELETE', `/v1/notes/${note}`);
    expect((await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'still saves' }, { 'If-Match': '"1"' })).status).toBe(200);
  });

  it('answers 404 to another account for every operation, and lists none of its visits', async () => {
    const { data: visit } = (await call('POST', '/v1/visits', { patient: { name: PATIENT } })).body;
    expect((await call('GET', `/v1/visits/${visit.id}`, undefined, other)).status).toBe(404);
    expect((await call('PATCH', `/v1/visits/${visit.id}`, { transcript: 'x' }, { ...other, 'If-Match': '"1"' })).status).toBe(404);
    expect((await call('DELETE', `/v1/visits/${visit.id}`, undefined, other)).status).toBe(404);
    const theirList = await call('GET', `/v1/visits?q=${encodeURIComponent('Quixote')}`, undefined, other);
    expect(theirList.body.data.items).toEqual([]);
    expect(JSON.stringify((await call('GET', '/v1/visits', undefined, other)).body)).not.toContain(visit.id);
    expect((await call('GET', `/v1/visits/${visit.id}`)).body.data.patient.name).toBe(PATIENT);
  });

  it('keeps the patient name and the dictation unreadable in the database', async () => {
    await call('POST', '/v1/visits', { patient: { name: PATIENT }, dictation: { text: 'Sesquipedalian-marker dictation.' } });
    expect(await s.storedContaining('Quixote')).toEqual([]);
    expect(await s.storedContaining('Sesquipedalian')).toEqual([]);
    expect(s.logs.join('\n')).not.toContain('Quixote');
  });

  it('counts visits in storage, deletes them with all data, and lets retention remove old ones', async () => {
    const usage = (await call('GET', '/v1/storage')).body.data;
    expect(usage.visits.count).toBeGreaterThan(0);
    expect(usage.visits.bytes).toBeGreaterThan(0);
    const gone = (await call('DELETE', '/v1/storage?confirm=all')).body.data;
    expect(gone.visits).toBe(usage.visits.count);
    expect((await call('GET', '/v1/visits')).body.data.items).toEqual([]);

    const { data: old } = (await call('POST', '/v1/visits', { patient: { name: 'Kept a while' } })).body;
    await call('PUT', '/v1/settings/retention', { days: 30 });
    expect((await s.clindoc.retention.sweep(Date.now() + 29 * 86_400_000)).visits).toBe(0);
    expect((await s.clindoc.retention.sweep(Date.now() + 31 * 86_400_000)).visits).toBe(1);
    expect((await call('GET', `/v1/visits/${old.id}`)).status).toBe(404);
    const trail = await waitFor(async () => {
      const items = (await call('GET', `/v1/audit-events?resourceId=${old.id}`)).body.data.items as { actor: string; resourceType: string }[];
      return items.some((e) => e.actor === 'system:retention') ? items : undefined;
    });
    expect(trail.find((e) => e.actor === 'system:retention')?.resourceType).toBe('visit');
  });

  it('documents /v1/visits in OpenAPI', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths['/v1/visits']!)).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/v1/visits/{visitId}']!)).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(Object.keys(doc.paths['/v1/visits/{visitId}']!.patch!.responses)).toEqual(expect.arrayContaining(['200', '412', '428']));
  });
});
