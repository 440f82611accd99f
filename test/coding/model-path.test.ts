import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { checkProposals, readProposals } from '../../main/services/coding/model-proposals.js';
import { answer, fail, startChatServer, type ChatServer } from '../llm/chat-server.js';
import { startServer, type TestServer } from '../support/server.js';

const table = loadCodeTable()!;

describe('checks on codes a language model proposes', () => {
  const text = 'Urinalysis shows sugar in the urine. Denies chest pain. Mother has glaucoma. History of appendicitis.';
  const verdict = checkProposals(
    text,
    readProposals({
      codes: [
        { code: 'R81', evidence: 'sugar in the urine' },
        { code: 'E11.999', evidence: 'sugar in the urine' },
        { code: 'E11', evidence: 'sugar in the urine' },
        { code: 'I10', evidence: 'hypertension' },
        { code: 'R07.9', evidence: 'chest pain' },
        { code: 'H40.9', evidence: 'glaucoma' },
        { code: 'K37', evidence: 'appendicitis' },
        { code: 'J45.909', evidence: 'asthma' },
        { code: 'R81', evidence: 'SUGAR IN THE URINE' },
        { nonsense: true },
      ],
    }),
    table,
    new Set(),
  );

  it('keeps a billable code whose evidence is in the text and affirmed, with the span found in the text', () => {
    expect(verdict.accepted.map((a) => a.code)).toEqual(['R81']);
    const [r81] = verdict.accepted;
    expect(r81!.display).toBe(table.get('R81')!.title);
    expect([...text].slice(r81!.evidence[0]!.start_char, r81!.evidence[0]!.end_char).join('')).toBe('sugar in the urine');
    expect(r81!.confidence).toBeLessThan(0.8);
  });

  it('rejects unknown codes, headings, invented evidence, negated findings, a relative\'s condition, and history', () => {
    expect(verdict.rejected).toEqual([
      { code: 'E11.999', why: 'not a code of FY2021' },
      { code: 'E11', why: 'a category heading, not a billable code' },
      { code: 'I10', why: 'evidence not found in the text' },
      { code: 'R07.9', why: 'negated in the text' },
      { code: 'H40.9', why: "a relative's condition, not the patient's" },
      { code: 'K37', why: 'history, not a current condition' },
      { code: 'J45.909', why: 'evidence not found in the text' },
    ]);
  });
});

// The first request builds the worker's coder (table, indexes, warm-up): seconds, many more on a loaded machine.
describe('model-assisted coding through the API', { timeout: 120_000 }, () => {
  let chat: ChatServer;
  let s: TestServer;
  let mode: 'propose' | 'fail' = 'propose';
  beforeAll(async () => {
    chat = await startChatServer((req, res) => {
      if (mode === 'fail') return fail(res, 500);
      const user = req.body.messages?.find((m) => m.role === 'user')?.content ?? '';
      // A model that both helps and errs: one real finding, one negated, one invented.
      answer(res, JSON.stringify({
        codes: [
          { code: 'R81', evidence: 'sugar in the urine' },
          { code: 'R07.9', evidence: 'chest pain' },
          { code: 'I48.91', evidence: user.includes('atrial fibrillation') ? 'atrial fibrillation' : 'irregular heartbeat' },
        ],
      }));
    });
    s = await startServer({ CLINDOC_LLM_BASE_URL: chat.baseUrl, CLINDOC_LLM_MODEL: 'test-coder' });
  });
  afterAll(async () => {
    await s.close();
    await chat.close();
  });

  const analyze = async (text: string) =>
    (await (await fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ text }) })).json()).data;

  it('adds the checked proposals beside the embedded codes, marked as the model\'s', async () => {
    const data = await analyze('Hypertension. Urinalysis shows sugar in the urine. Denies chest pain.');
    expect(chat.requests.length).toBeGreaterThan(0);
    expect(data.codes.map((c: { code: string; source: string }) => [c.code, c.source])).toEqual([['I10', 'embedded'], ['R81', 'model']]);
  });

  it('answers with the embedded codes when the model fails', async () => {
    mode = 'fail';
    const data = await analyze('Hypertension. Urinalysis shows sugar in the urine.');
    expect(data.codes.map((c: { code: string }) => c.code)).toEqual(['I10']);
    mode = 'propose';
  });
});
