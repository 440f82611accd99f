import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { answer, startChatServer, type ChatServer } from '../llm/chat-server.js';
import { NOTE } from '../extraction/helpers.js';

/**
 * Issue 26 point 5: text-to-JSON, note styles and coding follow the engine the account chose for
 * its notes. A device with a language model configured must send an account's text nowhere once
 * that account chose the embedded writer, and use the model again when it returns to the default.
 */
describe('each text task follows the account\'s engine choice', () => {
  let llm: ChatServer;
  let s: TestServer;
  const AGE = { type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] };

  const post = async (path: string, body: unknown): Promise<{ status: number; json: any }> => {
    const res = await fetch(`${s.base}${path}`, { method: 'POST', headers: s.headers(), body: JSON.stringify(body) });
    return { status: res.status, json: await res.json() };
  };
  const choose = async (noteEngine: string | null): Promise<void> => {
    const res = await fetch(`${s.base}/v1/settings/engines`, { method: 'PUT', headers: s.headers(), body: JSON.stringify({ noteEngine }) });
    expect(res.status).toBe(200);
  };
  const modelCalls = (): number => llm.requests.filter((r) => r.method === 'POST').length;

  beforeAll(async () => {
    // The model answers 70 wherever it is asked for an age (the note says 67), and a style template otherwise.
    llm = await startChatServer((req, res) => {
      const system = req.body.messages?.find((m) => m.role === 'system')?.content ?? '';
      answer(res, /json|schema/i.test(system) ? '{"age": 70}' : 'CHIEF COMPLAINT:\n[complaint]\n\nASSESSMENT AND PLAN:\n[plan]');
    });
    s = await startServer({ CLINDOC_RATE_LIMIT: '100000', CLINDOC_LLM_BASE_URL: llm.baseUrl, CLINDOC_LLM_MODEL: 'clinic-model' });
  });
  afterAll(async () => {
    await s?.close();
    await llm?.close();
  });

  it('sends nothing to the device\'s model once the account chose the embedded writer', async () => {
    await choose('embedded');
    const before = modelCalls();
    const read = await post('/v1/utils/text-to-json', { text: NOTE, schema: AGE });
    expect(read.status).toBe(200);
    expect(read.json.engine).toBe('embedded');
    expect(read.json.data).toEqual({ age: 67 });
    const style = await post('/v1/note-styles', { sampleNote: 'CHIEF COMPLAINT: cough.\n\nASSESSMENT AND PLAN:\n1. Bronchitis. Rest.', instructions: [] });
    expect(style.status).toBe(200);
    const coded = await post('/v1/coding/analyze', { text: 'Assessment: type 2 diabetes mellitus without complications. Continue metformin.' });
    expect(coded.status).toBe(200);
    expect(modelCalls()).toBe(before);
  }, 180_000); // the first extraction, style and coding each start a worker's tables (seconds; minutes on a loaded machine)

  it('uses the device\'s model again when the account returns to the default', async () => {
    await choose(null);
    const before = modelCalls();
    const read = await post('/v1/utils/text-to-json', { text: NOTE, schema: AGE });
    expect(read.status).toBe(200);
    expect(read.json.engine).not.toBe('embedded');
    expect(read.json.data).toEqual({ age: 70 });
    expect(modelCalls()).toBeGreaterThan(before);
  });
});
