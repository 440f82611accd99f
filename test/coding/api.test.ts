import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';

const TRANSCRIPT = `[doctor] good morning , how have your sugars been ?
[patient] my sugars have been okay , i take metformin every day .
[doctor] your a1c is seven point two . your blood pressure is one thirty over eighty .
[doctor] so your type 2 diabetes is well controlled , continue metformin five hundred milligrams twice a day .
[doctor] and your hypertension is stable , continue lisinopril ten milligrams daily .`;

/** The text between two code-point offsets. */
const slice = (text: string, start: number, end: number): string => [...text].slice(start, end).join('');

// The first request builds the worker's coder (table, indexes, warm-up): seconds, many more on a loaded machine.
describe('POST /v1/coding/analyze', { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  const analyze = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: s.headers(headers), body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('codes a text: billable ICD-10-CM codes with the dot, the edition, exact evidence and the E/M level', async () => {
    const text = 'ASSESSMENT AND PLAN\n1. Type 2 diabetes with diabetic chronic kidney disease, stage 3a. Continue metformin 500 mg twice daily.\n2. Left knee osteoarthritis. Denies chest pain.';
    const res = await analyze({ text });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    const { codes, edition } = body.data;
    expect(edition).toBe('FY2021');
    const icd = codes.filter((c: { system: string }) => c.system === 'ICD-10-CM');
    expect(icd.map((c: { code: string }) => c.code)).toEqual(['E11.22', 'N18.31', 'M17.12', 'Z79.84']);
    for (const c of icd) {
      expect(c.edition).toBe('FY2021');
      expect(c.confidence).toBeGreaterThan(0);
      expect(c.confidence).toBeLessThanOrEqual(1);
      for (const e of c.evidence) expect(slice(text, e.start_char, e.end_char)).toBe(e.text);
    }
    expect(icd[0].display).toBe('Type 2 diabetes mellitus with diabetic chronic kidney disease');
    expect(icd[0].related).toContain('N18.31');
    const cpt = codes.find((c: { system: string }) => c.system === 'CPT');
    expect(cpt.code).toMatch(/^9921[2-5]$/);
    expect(cpt.reasoning.findings.join(' ')).toMatch(/prescription drug management/);
    // Code numbers only: no AMA descriptor without a licensed table.
    expect(cpt.display).toMatch(/CLINDOC_CPT_TABLE/);
    expect(cpt.licensedDescriptor).toBeUndefined();
  });

  it('codes a finished note of the account, with offsets into its markdown; another account gets 404', async () => {
    const created = await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT }) })).json();
    const noteId: string = created.data.noteId;
    const note = await waitFor(async () => {
      const body = await (await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).json();
      return body.data.status === 'STATUS_DONE' ? body.data : undefined;
    });
    const res = await analyze({ noteId });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.noteId).toBe(noteId);
    const icd = data.codes.filter((c: { system: string }) => c.system === 'ICD-10-CM').map((c: { code: string }) => c.code);
    expect(icd).toEqual(expect.arrayContaining(['E11.9', 'I10']));
    for (const c of data.codes) for (const e of c.evidence) expect(slice(note.payload.markdown, e.start_char, e.end_char)).toBe(e.text);

    const other = await s.clindoc.accounts.createAccount('Other clinic');
    const foreign = await analyze({ noteId }, { 'X-API-KEY': other.apiKey, 'X-ACCOUNT-ID': other.account.id });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ error: 404, message: 'note not found' });
    expect((await analyze({ noteId: 'no-such-note' })).status).toBe(404);
  });

  it('codes a conversation and a visit\'s transcript through the encounter understanding, with the rule that chose each code', async () => {
    const res = await analyze({ transcript: TRANSCRIPT });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    const icd = data.codes.filter((c: { system: string }) => c.system === 'ICD-10-CM');
    expect(icd.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['E11.9', 'I10']));
    // A conversation is no note: no office E/M level is read from it.
    expect(data.codes.some((c: { system: string }) => c.system === 'CPT')).toBe(false);
    for (const c of icd) {
      // From the problems the understanding confirms, or (when it names none) from the clinician's plan less what the facts doubt.
      expect(c.rule).toMatch(new RegExp(`^${c.code.replace('.', '\\.')}: (the encounter's confirmed problem|read from the clinician's plan)`));
      for (const e of c.evidence) expect(slice(TRANSCRIPT, e.start_char, e.end_char)).toBe(e.text);
    }

    const visit = (await (await fetch(`${s.base}/v1/visits`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT }) })).json()).data;
    const byVisit = await analyze({ visitId: visit.id });
    expect(byVisit.status).toBe(200);
    const visitData = (await byVisit.json()).data;
    expect(visitData.visitId).toBe(visit.id);
    expect(visitData.codes.map((c: { code: string }) => c.code)).toEqual(icd.map((c: { code: string }) => c.code));
    const empty = (await (await fetch(`${s.base}/v1/visits`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ patient: { name: 'No Talk' } }) })).json()).data;
    const noTranscript = await analyze({ visitId: empty.id });
    expect(noTranscript.status).toBe(409);
    expect((await noTranscript.json()).message).toMatch(/^visitId: the visit has no transcript/);
    expect((await analyze({ visitId: 'no-such-visit' })).status).toBe(404);
  });

  it('explains each code of a text: the rule or convention that chose it', async () => {
    const { data } = await (await analyze({ text: 'ASSESSMENT AND PLAN\n1. Hypertension with chronic kidney disease stage 3a.\n2. Right knee MCL sprain.' })).json();
    const rules = Object.fromEntries(data.codes.filter((c: { system: string }) => c.system === 'ICD-10-CM').map((c: { code: string; rule: string }) => [c.code, c.rule]));
    expect(rules['I12.9']).toMatch(/^I12\.9: hypertension with chronic kidney disease/);
    expect(rules['S83.411A']).toMatch(/7th character A \(initial encounter/);
  });

  it.each([
    [{}, /text/],
    [{ text: 'HTN', noteId: 'x' }, /noteId/],
    [{ transcript: '[doctor] hypertension .', visitId: 'x' }, /visitId/],
    [{ transcript: '' }, /transcript/],
    [{ text: 42 }, /text/],
    [{ text: '' }, /text/],
    [{ noteId: 7 }, /noteId/],
    [{ text: ['HTN'] }, /text/],
  ])('rejects %j with 400 naming the field', async (body, field) => {
    const res = await analyze(body);
    expect(res.status).toBe(400);
    const err = await res.json();
    expect(err.error).toBe(400);
    expect(err.message).toMatch(field);
  });

  it('answers text with nothing to code, or in other languages, with no codes', async () => {
    for (const text of ['We talked about her garden and the weather.', 'Paciente con dolor de cabeza. Niega fiebre.', '患者主诉头痛三天，无发热。', 'Пациент жалуется на головную боль.', '\u0000\u0007 ~~~ ### 12345 !!!']) {
      const res = await analyze({ text });
      expect(res.status).toBe(200);
      expect((await res.json()).data.codes).toEqual([]);
    }
  });

  it('refuses a text over the coding limit and a body over the body limit with 413; a large allowed text is answered', async () => {
    const line = 'Hypertension, stable on lisinopril. Denies chest pain. Left knee osteoarthritis. ';
    const tooLong = await analyze({ text: line.repeat(Math.ceil(200_001 / line.length)) });
    expect(tooLong.status).toBe(413);
    expect((await tooLong.json()).message).toMatch(/text: at most 200000 characters/);
    const huge = await analyze(JSON.stringify({ text: 'x'.repeat(11 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toBe(413);
    const large = await analyze({ text: line.repeat(Math.floor(199_000 / line.length)) });
    expect(large.status).toBe(200);
    const codes = (await large.json()).data.codes.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['I10', 'M17.12']));
    expect(codes).not.toContain('R07.9');
  });

  it('is documented in the OpenAPI document with its decisions', async () => {
    const doc = await (await fetch(`${s.base}/openapi.json`)).json();
    const op = doc.paths['/v1/coding/analyze'].post;
    expect(op.operationId).toBe('analyzeCoding');
    expect(JSON.stringify(op)).toMatch(/409/);
    expect(JSON.stringify(op.requestBody)).toMatch(/synchronously/);
  });
});

describe('POST /v1/coding/analyze with an unfinished note and a licensed CPT table', () => {
  let s: TestServer;
  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-cpt-'));
    const cpt = join(dir, 'cpt.csv');
    writeFileSync(cpt, 'code,descriptor\n99214,"Licensed descriptor, level 4 (test text)"\n99213,Licensed descriptor level 3\n');
    // No jobs run, so a created note stays pending.
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_CPT_TABLE: cpt });
  });
  afterAll(() => s.close());

  it('answers 409 while the note is not finished', async () => {
    const created = await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT }) })).json();
    const res = await fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ noteId: created.data.noteId }) });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/STATUS_PENDING/);
  });

  it('shows the descriptor from the operator\'s licensed table', async () => {
    const text = 'ASSESSMENT AND PLAN\n1. Type 2 diabetes. Continue metformin 500 mg twice daily.\n2. Hypertension, stable. Continue lisinopril 10 mg daily.';
    const res = await fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ text }) });
    const cpt = (await res.json()).data.codes.find((c: { system: string }) => c.system === 'CPT');
    expect(cpt.code).toBe('99214');
    expect(cpt.display).toBe('Licensed descriptor, level 4 (test text)');
    expect(cpt.licensedDescriptor).toBe(true);
  });
});
