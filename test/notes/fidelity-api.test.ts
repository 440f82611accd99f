import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedNote, startServer, type TestServer } from '../support/server.js';
import { unsupportedNumbers } from '../../main/services/notes/fidelity.js';

// The embedded writer's note passes the same fidelity check as a model's (see test/llm/fidelity-api.test.ts).
// Fragments that once became "60600 mg" and "5 cm" in embedded notes.
const TRANSCRIPT = `[doctor] hi , what brings you in today ?
[patient] i've had a cough for five days . i take guaifenesin six hundred six hundred milligrams twice a day .
[doctor] any chest pain ?
[patient] no .
[doctor] your blood pressure is one twenty over eighty and your temperature is ninety eight point six .
[doctor] the ct shows a . five centimeter kidney stone on the right side .
[doctor] i hear a three out of six systolic ejection murmur at the left base .
[doctor] come back in two to three weeks .`;

describe('fidelity of the embedded note through POST /v1/notes', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('stores a note in which every number is supported or marked, with the review list and an unflagged header', async () => {
    const request = {
      transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson: true }, date: '2026-11-20T10:00:00Z',
      patientInfo: { name: 'Ana Ruiz', dateOfBirth: '1980-02-03' },
    };
    const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify(request) });
    expect(res.status).toBe(202);
    const { noteId } = (await res.json()).data;
    const note = await finishedNote(s, noteId);
    expect(note.status).toBe('STATUS_DONE');
    const md: string = note.payload.markdown;
    expect(md).toContain('1980-02-03');
    expect(md).not.toMatch(/60600|(?<![\d.])5 cm/);
    // Nothing the transcript does not support stands unmarked in what the physician reads.
    expect(unsupportedNumbers(md, { transcript: TRANSCRIPT, date: request.date, patientInfo: request.patientInfo })).toEqual([]);
    const review = note.payload.json.review as { kind: string; position: { start: number; end: number } }[];
    expect(Array.isArray(review)).toBe(true);
    expect(review.filter((r) => r.kind === 'date')).toEqual([]);
    for (const r of review) expect(md.slice(r.position.start, r.position.end)).toMatch(/⚠\[check: [^\]]+\]$/);
  });

  it('lists passages left in the transcript language even when the caller did not ask for JSON', async () => {
    const request = { transcript: TRANSCRIPT, noteType: { type: 'soap' }, language: 'es' };
    const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify(request) });
    const { noteId } = (await res.json()).data;
    const note = await finishedNote(s, noteId);
    expect(note.status).toBe('STATUS_DONE');
    const md: string = note.payload.markdown;
    const marked = md.match(/\[en, [^:\]]+: /g) ?? [];
    const listed = (note.payload.json?.untranslated ?? []) as { text: string }[];
    // Every visible marker is listed for the physician, and nothing is listed that the note does not mark.
    expect(listed.length).toBe(marked.length);
    for (const item of listed) expect(md).toContain(item.text);
  });

  it('lists what was said but not placed in the note beside the review list, with or without includeJson (issue 24)', async () => {
    // The patient's aside about the weekend is no fact of the note; it is listed, not dropped silently.
    const transcript = `${TRANSCRIPT}\n[patient] we drove up to the lake house with the whole family over the long weekend and the traffic was terrible .`;
    for (const includeJson of [false, true]) {
      const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript, noteType: { type: 'soap', includeJson } }) });
      const note = await finishedNote(s, (await res.json()).data.noteId);
      expect(note.status).toBe('STATUS_DONE');
      const unplaced = (note.payload.json?.unplaced ?? []) as { text: string; reason: string }[];
      expect(unplaced.some((u) => /lake house/.test(u.text) && u.reason.length > 0)).toBe(true);
      expect(note.payload.markdown).not.toContain('lake house');
    }
  });
});
