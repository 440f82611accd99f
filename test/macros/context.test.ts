/**
 * Safe macros: a macro phrase said inside a negation or followed by an exception stays as spoken,
 * an `insert` macro fires only when commanded, and the API says why in `skipped`. Same rules over
 * HTTP (`POST /v1/macros/detect`, the saved library) as in the service.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createMacroService, type MacroDefinition } from '../../main/services/macros/index.js';
import { startServer, type TestServer } from '../support/server.js';

const CARDIAC: MacroDefinition = { id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'HEART: regular rate and rhythm, no murmurs, rubs or gallops.' };
const NAD: MacroDefinition = { id: 'nad', examples: ['no acute distress'], expansion_text: 'GENERAL: no acute distress.' };
const EDEMA: MacroDefinition = { id: 'edema', examples: ['no peripheral edema'], expansion_text: 'EXT: no edema.' };
const EBL: MacroDefinition = { id: 'ebl', examples: ['estimated blood loss minimal'], expansion_text: 'EBL: minimal.' };
const LUNGS: MacroDefinition = { id: 'lungs', examples: ['lungs clear'], expansion_text: 'LUNGS: clear to auscultation bilaterally.', trigger: 'insert' };
const MACROS = [CARDIAC, NAD, EDEMA, EBL, LUNGS];

const service = createMacroService();
const detect = (text: string) => service.detect({ text, macros: MACROS });

describe('a macro does not fire against what was dictated', () => {
  it.each([
    ['negated', 'This was not a normal cardiac exam.', 'not'],
    ['negated', 'He did not have a normal cardiac exam today.', 'did not have'],
    ['negated', 'Without a normal cardiac exam we cannot clear him.', 'Without'],
    ['exception', 'Normal cardiac exam except for a soft systolic murmur.', 'except for'],
    ['exception', 'Normal cardiac exam, apart from a murmur.', 'apart from'],
    ['exception', 'normal cardiac exam other than an S4', 'other than'],
  ])('%s: "%s" stays as spoken', (reason, text, trigger) => {
    const r = detect(text);
    expect(r.expanded_text).toBe(text);
    expect(r.detections).toEqual([]);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]).toMatchObject({ macro_id: 'cardiac', reason, trigger: { text: trigger } });
    expect(r.skipped[0]!.text_span.text.toLowerCase()).toBe('normal cardiac exam');
    const { start_char, end_char } = r.skipped[0]!.trigger!;
    expect(Array.from(text).slice(start_char, end_char).join('')).toBe(trigger);
  });

  it.each([
    ['a negation in an earlier sentence', 'No chest pain. Normal cardiac exam.'],
    ['a negated list before a comma', 'Denies chest pain, normal cardiac exam.'],
    ['a negation inside another macro', 'No peripheral edema normal cardiac exam.'],
    ['"otherwise", which is no exception', 'Normal cardiac exam, otherwise unremarkable.'],
    ['an exception in the next sentence', 'Normal cardiac exam. All normal except the knee.'],
  ])('still expands after %s', (_name, text) => {
    const r = detect(text);
    expect(r.detections.map((d) => d.macro_id)).toContain('cardiac');
    expect(r.expanded_text).toContain('HEART: regular rate and rhythm');
    expect(r.skipped).toEqual([]);
  });

  it('keeps a negative macro whose own words are the negation ("no, uh, no acute distress")', () => {
    const r = detect('Patient is in no, uh, no acute distress.');
    expect(r.detections.map((d) => d.macro_id)).toEqual(['nad']);
    expect(r.skipped).toEqual([]);
  });

  it('does not let a negation inside one detected macro reach the next one', () => {
    const r = detect('no peripheral edema estimated blood loss minimal');
    expect(r.detections.map((d) => d.macro_id)).toEqual(['edema', 'ebl']);
  });
});

describe('trigger mode', () => {
  it('expands an insert macro only after its command, and says why otherwise', () => {
    const plain = detect('Lungs clear.');
    expect(plain.expanded_text).toBe('Lungs clear.');
    expect(plain.skipped).toEqual([expect.objectContaining({ macro_id: 'lungs', reason: 'trigger_required' })]);
    expect(plain.skipped[0]!.trigger).toBeUndefined();
    const commanded = detect('Insert lungs clear.');
    expect(commanded.detections).toEqual([expect.objectContaining({ macro_id: 'lungs', text_span: expect.objectContaining({ text: 'Insert lungs clear' }) })]);
    expect(commanded.expanded_text).toBe('LUNGS: clear to auscultation bilaterally.');
  });

  it('lets an ordinary macro win where an uncommanded insert macro overlaps it', () => {
    const macros: MacroDefinition[] = [
      { id: 'long', examples: ['normal cardiac exam today'], expansion_text: 'LONG', trigger: 'insert' },
      { id: 'short', examples: ['normal cardiac exam'], expansion_text: 'SHORT' },
    ];
    const r = service.detect({ text: 'normal cardiac exam today', macros });
    expect(r.detections.map((d) => d.macro_id)).toEqual(['short']);
    expect(r.skipped).toEqual([]);
  });

  it('refuses an unknown trigger mode with a 400 naming the field', () => {
    expect(() => service.detect({ text: 'x', macros: [{ ...CARDIAC, trigger: 'always' as never }] })).toThrow(/macros\[0\]\.trigger/);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.base}${path}`, { method: 'POST', headers: server.headers(), body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('POST /v1/macros/detect keeps the contract fields and adds skipped with the reason', async () => {
    const { status, body } = await post('/v1/macros/detect', { text: 'This was not a normal cardiac exam. Insert lungs clear.', macros: MACROS });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.expanded_text).toBe('This was not a normal cardiac exam. LUNGS: clear to auscultation bilaterally.');
    expect(body.data.detections).toEqual([{ macro_id: 'lungs', text_span: { start_char: 36, end_char: 54, text: 'Insert lungs clear' }, confidence: 1 }]);
    expect(body.data.skipped).toEqual([
      { macro_id: 'cardiac', reason: 'negated', text_span: { start_char: 15, end_char: 34, text: 'normal cardiac exam' }, confidence: 1, trigger: { start_char: 9, end_char: 12, text: 'not' } },
    ]);
  });

  it('answers 400 for a trigger mode that does not exist', async () => {
    const { status, body } = await post('/v1/macros/detect', { text: 'x', macros: [{ ...CARDIAC, trigger: 'sometimes' }] });
    expect(status).toBe(400);
    expect(body.message).toMatch(/trigger/);
  });

  it('saves the trigger mode in the macro library', async () => {
    const created = await post('/v1/macro-library', LUNGS);
    expect(created.status).toBe(201);
    const res = await fetch(`${server.base}/v1/macro-library/lungs`, { headers: server.headers() });
    expect(((await res.json()) as { data: MacroDefinition }).data).toEqual(LUNGS);
  });

  it('documents skipped and the trigger mode in the OpenAPI document', async () => {
    const doc = JSON.stringify(await (await fetch(`${server.base}/openapi.json`)).json());
    expect(doc).toContain('trigger_required');
    expect(doc).toContain('"skipped"');
  });
});
