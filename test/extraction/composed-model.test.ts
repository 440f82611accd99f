import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { startServer, type TestServer } from '../support/server.js';
import { NOTE, SHIPPED_PROMPT } from './helpers.js';

/**
 * The composition reads the extraction prompt and hands it to the service (services never read
 * files): with a model configured, text-to-JSON sends the shipped prompt and returns the model's answer.
 */
describe('text-to-JSON with a configured language model', () => {
  const systems: string[] = [];
  let llm: Server;
  let app: TestServer;

  beforeAll(async () => {
    llm = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        // A request the client gave up on part-way (its timeout under a loaded machine) arrives
        // cut short: answer it as a server would rather than throwing inside the test process.
        let messages: Array<{ role: string; content: string }>;
        try {
          messages = (JSON.parse(body) as { messages: Array<{ role: string; content: string }> }).messages;
        } catch {
          res.statusCode = 400;
          res.end('{"error":"unreadable body"}');
          return;
        }
        systems.push(messages.find((m) => m.role === 'system')?.content ?? '');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"age": 70}' }, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
    const port = (llm.address() as { port: number }).port;
    app = await startServer({ CLINDOC_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, CLINDOC_LLM_MODEL: 'scripted' });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise<void>((resolve) => llm.close(() => resolve()));
  });

  it('instructs the model with the shipped extraction prompt and answers with what it read', async () => {
    const res = await fetch(`${app.base}/v1/utils/text-to-json`, {
      method: 'POST', headers: app.headers(),
      body: JSON.stringify({ text: NOTE, schema: { type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] } }),
    });
    expect(res.status).toBe(200);
    // The embedded reader would answer 67 (the note's age): 70 can only come from the model.
    expect((await res.json()).data).toEqual({ age: 70 });
    expect(systems.length).toBeGreaterThan(0);
    expect(systems[0]).toContain(SHIPPED_PROMPT.trim());
  });
});
