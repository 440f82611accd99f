import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedNote, startServer, waitFor, type TestServer } from '../support/server.js';

const TRANSCRIPT = `[doctor] hi mister lopez , what brings you in today ?
[patient] i've had a cough for three days and some fever .
[doctor] any chest pain or shortness of breath ?
[patient] no chest pain . i do get a little short of breath walking up stairs .
[doctor] your temperature is one hundred point four and your oxygen saturation is ninety six percent .
[doctor] lungs have some crackles in the right base .
[doctor] i think this is community acquired pneumonia . we'll start amoxicillin five hundred milligrams three times a day for seven days .`;

describe('notes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(headers), body: JSON.stringify(body) });

  it('accepts a note with 202, then shows it done with markdown and timestamps', async () => {
    const res = await post({ transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson: true }, language: 'en', date: '2026-11-20' });
    expect(res.status).toBe(202);
    const created = await res.json();
    expect(created.status).toBe('ok');
    const noteId: string = created.data.noteId;
    expect(noteId).toMatch(/[0-9a-f-]{36}/);
    const note = await finishedNote(s, noteId);
    expect(note.status).toBe('STATUS_DONE');
    expect(note.id).toBe(noteId);
    expect(note.payload.markdown.toLowerCase()).toContain('cough');
    expect(note.payload.markdown.toLowerCase()).toContain('amoxicillin');
    expect(typeof note.payload.json).toBe('object');
    expect(note.timestamp.complete).toBeGreaterThanOrEqual(note.timestamp.start);
  });

  it('lists notes newest first with a cursor, and deletes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await (await post({ transcript: `${TRANSCRIPT} visit ${i}` })).json()).data.noteId);
    const first = await (await fetch(`${s.base}/v1/notes?limit=2`, { headers: s.headers() })).json();
    expect(first.data.items).toHaveLength(2);
    expect(first.data.items[0].id).toBe(ids[2]);
    expect(first.data.nextCursor).toBeTruthy();
    const second = await (await fetch(`${s.base}/v1/notes?limit=2&cursor=${first.data.nextCursor}`, { headers: s.headers() })).json();
    expect(second.data.items[0].id).toBe(ids[0]);
    const del = await fetch(`${s.base}/v1/notes/${ids[0]}`, { method: 'DELETE', headers: s.headers() });
    expect(del.status).toBe(200);
    const delBody = await del.json();
    expect(delBody.status).toBe('ok');
    expect(delBody.data).toBeUndefined();
    expect((await fetch(`${s.base}/v1/notes/${ids[0]}`, { headers: s.headers() })).status).toBe(404);
    expect((await fetch(`${s.base}/v1/notes/${ids[0]}`, { method: 'DELETE', headers: s.headers() })).status).toBe(404);
  });

  it.each([
    [{}, /transcript/],
    [{ transcript: '   ' }, /transcript/],
    [{ transcript: 42 }, /transcript/],
    [{ transcript: 'x', language: 'es-MX' }, /language/],
    [{ transcript: 'x', language: 'multi' }, /language/],
    [{ transcript: 'x', noteType: { type: 'poem' } }, /noteType\.type/],
    [{ transcript: 'x', noteType: { type: 'note_style' } }, /noteType\.template/],
    [{ transcript: 'x', date: '2026-13-40' }, /date/],
    [{ transcript: 'x', medicationList: Array.from({ length: 51 }, (_, i) => `drug${i}`).join(', ') }, /medicationList/],
    [{ transcript: 'x', instructions: 'be brief' }, /instructions/],
    [{ transcript: 'x', noteType: { type: 'note_template', templateId: 'missing' } }, /templateId/],
  ])('rejects %j with 400 naming the field', async (body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err.error).toBe(400);
    expect(err.message).toMatch(field);
  });

  it('ignores unknown fields', async () => {
    expect((await post({ transcript: TRANSCRIPT, somethingNew: true })).status).toBe(202);
  });

  it('answers malformed JSON with 400, a wrong Content-Type with 415, an oversized body with 413', async () => {
    const bad = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: '{"transcript": ' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/JSON/);
    const text = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers({ 'content-type': 'text/plain' }), body: 'hello' });
    expect(text.status).toBe(415);
    const huge = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: 'a'.repeat(11 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toBe(413);
  });

  it('replays the first response for a repeated Idempotency-Key and refuses a different body', async () => {
    const key = `idem-${Date.now()}`;
    const a = await post({ transcript: TRANSCRIPT }, { 'Idempotency-Key': key });
    const b = await post({ transcript: TRANSCRIPT }, { 'Idempotency-Key': key });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect((await b.json()).data.noteId).toBe((await a.json()).data.noteId);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const c = await post({ transcript: `${TRANSCRIPT} changed` }, { 'Idempotency-Key': key });
    expect(c.status).toBe(400);
    expect((await c.json()).message).toMatch(/Idempotency-Key/);
  });

  it('creates a note style template from a sample note', async () => {
    const sample = 'CHIEF COMPLAINT\n\nKnee pain.\n\nASSESSMENT AND PLAN\n\n1. Osteoarthritis.\n- Ibuprofen as needed.\n';
    const res = await fetch(`${s.base}/v1/note-styles`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ sampleNote: sample, instructions: [] }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    expect(body.data.template).toMatch(/CHIEF COMPLAINT/i);
    expect(body.data.template).toMatch(/ASSESSMENT AND PLAN/i);
    const missing = await fetch(`${s.base}/v1/note-styles`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ instructions: [] }) });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toMatch(/sampleNote/);
  });

  it('keeps the transcript out of the logs', async () => {
    const marker = 'Zanzibarian mango allergy since nineteen ninety';
    const res = await post({ transcript: `${TRANSCRIPT}\n[patient] ${marker}` });
    const noteId = (await res.json()).data.noteId;
    await waitFor(async () => {
      const body = await (await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).json();
      return body.data.status === 'STATUS_DONE' ? true : undefined;
    });
    const logText = s.logs.join('\n');
    expect(logText).toContain('"route":"/v1/notes"');
    expect(logText).not.toContain('Zanzibarian');
    expect(logText).not.toContain(s.creds.apiKey);
  });
});
