import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedNote, startServer, type TestServer } from '../support/server.js';
import { answer, startChatServer, type ChatServer } from './chat-server.js';

// A language model that writes what a physician would never sign: an invented dose, a flipped
// negation, an invented "rule out angina", a type of diabetes never said, the wrong knee, a home
// blood pressure as today's, an MRI nobody ordered and a conversational sentence. The loopback
// server plays it, so the whole path runs (POST /v1/notes, the job, the model writer grounded in
// the facts, the fidelity check, GET /v1/notes/{id}; and POST /v1/utils/text-to-json).
const TRANSCRIPT = `[doctor] what brings you in today ?
[patient] my right knee has been hurting for about three days since i fell .
[doctor] have you been checking your blood pressure ?
[patient] yes , my blood pressure at home was one sixty over ninety .
[doctor] are you still taking metformin for your diabetes ?
[patient] yes , metformin five hundred milligrams twice a day .
[doctor] any fever ?
[patient] no .
[doctor] your blood pressure today is one twenty eight over seventy eight .
[doctor] on exam of the right knee there is tenderness medially and no effusion .
[doctor] we will get an x-ray of the right knee and you can take ibuprofen six hundred milligrams as needed .`;

const MODEL_NOTE = {
  subjective: 'Right knee pain for 3 days after a fall. Reports fever. Takes metformin 5000 mg twice daily for type 2 diabetes.',
  objective: 'BP 160/90. Left knee: tenderness medially, no effusion.',
  assessment: 'Rule out angina.',
  plan: ['Okay, so we will get you an x-ray, sound good?', 'MRI of the right knee.', 'Ibuprofen 600 mg as needed.'],
};

const MODEL_JSON = {
  medications: [{ name: 'metformin', dose: '5000 mg' }],
  fever: true,
  denied_symptoms: ['knee pain'],
  diagnoses: ['rule out angina'],
  knee_side: 'left knee',
  systolic_bp: 190,
};
const JSON_SCHEMA = {
  type: 'object',
  properties: {
    medications: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, dose: { type: ['string', 'null'] } } } },
    fever: { type: 'boolean' },
    denied_symptoms: { type: 'array', items: { type: 'string' } },
    diagnoses: { type: 'array', items: { type: 'string' } },
    knee_side: { type: ['string', 'null'] },
    systolic_bp: { type: ['integer', 'null'] },
  },
};

describe('a language model that invents, through the API', () => {
  let chat: ChatServer;
  let s: TestServer;
  beforeAll(async () => {
    chat = await startChatServer((req, res) => {
      const system = req.body.messages?.find((m) => m.role === 'system')?.content ?? '';
      // The note writer asks for sections; text-to-JSON for the caller's schema.
      answer(res, JSON.stringify(/JSON Schema of the answer/.test(req.body.messages?.map((m) => m.content).join('\n') ?? '') && !/clinical documentation assistant/.test(system) ? MODEL_JSON : MODEL_NOTE));
    });
    s = await startServer({ CLINDOC_LLM_BASE_URL: chat.baseUrl, CLINDOC_LLM_MODEL: 'inventive' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await chat?.close();
  });

  it('grounds the model in the facts, and flags or removes every invention in the note', { timeout: 120_000 }, async () => {
    const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT, noteType: { type: 'soap' } }) });
    expect(res.status).toBe(202);
    const note = await finishedNote(s, (await res.json()).data.noteId);
    expect(note.status).toBe('STATUS_DONE');

    const asked = chat.requests.find((r) => r.body.messages?.some((m) => m.role === 'system' && /clinical documentation assistant/.test(m.content)));
    const prompt = asked!.body.messages!.map((m) => m.content).join('\n');
    expect(prompt).toContain('Facts read from the transcript');
    expect(prompt).toMatch(/- Denies: fever/);
    expect(prompt).toMatch(/Vital signs NOT from today[^\n]*160\/90 measured at home/);

    const md: string = note.payload.markdown;
    expect(md).not.toContain('5000');
    expect(md).toContain('Reports fever ⚠[check: the transcript says no fever].');
    expect(md).toContain('type 2 diabetes ⚠[check: the transcript says diabetes, not type 2 diabetes]');
    expect(md).toContain('BP 160/90 ⚠[check: the transcript gives this as measured at home, not today].');
    expect(md).toContain('Left knee ⚠[check: the transcript says right knee]');
    expect(md).toContain('Rule out angina ⚠[check: angina not discussed in the transcript].');
    expect(md).toContain('sound good? ⚠[check: reads as conversation (a question)]');
    expect(md).toContain('MRI ⚠[check: mri not discussed in the transcript] of the right knee.');
    // What the transcript supports stays as the model wrote it.
    expect(md).toContain('Right knee pain for 3 days after a fall.');
    expect(md).toContain('Ibuprofen 600 mg as needed.');

    const review = note.payload.json.review as { kind: string; action: string }[];
    expect(review.map((r) => r.kind).sort()).toEqual(['diagnosis', 'diagnosis', 'dose', 'laterality', 'negation', 'order', 'register', 'vital']);
    expect(review.find((r) => r.kind === 'dose')!.action).toBe('removed');
  });

  it('text-to-JSON names the engine, removes invented values and lists every flag', { timeout: 120_000 }, async () => {
    const res = await fetch(`${s.base}/v1/utils/text-to-json`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ text: TRANSCRIPT, schema: JSON_SCHEMA }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.engine).toBe('openai-compatible');
    // Invented values are gone; contradictions stay in the data and are listed.
    expect(body.data.medications).toEqual([{ name: 'metformin', dose: null }]);
    expect(body.data.systolic_bp).toBeNull();
    expect(body.data.fever).toBe(true);
    const flags = (body.review as { path: string; kind: string; action: string; reason: string }[]).map((f) => [f.path, f.kind, f.action]);
    expect(flags).toEqual(expect.arrayContaining([
      ['/medications/0/dose', 'dose', 'removed'],
      ['/fever', 'negation', 'marked'],
      ['/denied_symptoms/0', 'negation', 'marked'],
      ['/diagnoses/0', 'diagnosis', 'marked'],
      ['/knee_side', 'laterality', 'marked'],
      ['/systolic_bp', 'number', 'removed'],
    ]));
    expect(flags).toHaveLength(6);
  });

  it('text-to-JSON without a model names the embedded reader and has nothing to review', { timeout: 120_000 }, async () => {
    const plain = await startServer({});
    try {
      const res = await fetch(`${plain.base}/v1/utils/text-to-json`, {
        method: 'POST', headers: plain.headers(), body: JSON.stringify({ text: 'BP 120/80.', schema: { type: 'object', properties: { bp: { type: 'string' } } } }),
      });
      const body = await res.json();
      expect(body).toEqual({ data: { bp: expect.stringMatching(/^120\/80/) }, engine: 'embedded', review: [] });
    } finally {
      await plain.close();
    }
  });
});
