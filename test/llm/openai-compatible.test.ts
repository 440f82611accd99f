import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiCompatibleModel, retryAfterMs } from '../../main/engines/llm/openai-compatible.js';
import { DomainError } from '../../main/services/errors.js';
import { answer, fail, startChatServer, streamAnswer, type ChatServer } from './chat-server.js';

const SECRET = 'Patient Jane Roe reports chest pain';
let server: ChatServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  const domain = err as DomainError;
  expect(domain.status).toBe(503);
  expect(domain.message).not.toContain('Jane');
  return domain;
}

describe('OpenAI-compatible language model', () => {
  it('sends the chat request the protocol expects and returns the answer', async () => {
    server = await startChatServer((req, res) => answer(res, `echo:${req.body.messages?.[1]?.content.length}`));
    const model = createOpenAiCompatibleModel({ baseUrl: `${server.baseUrl}/`, model: 'qwen2.5', apiKey: 'sk-test' });
    const result = await model.complete({ system: 'Be brief.', user: SECRET, maxTokens: 64, temperature: 0.2 });

    expect(model.name).toBe('openai-compatible');
    expect(result).toEqual({ text: `echo:${SECRET.length}`, finishReason: 'stop' });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'qwen2.5', stream: false, max_tokens: 64, temperature: 0.2 });
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: SECRET },
    ]);
    expect(sent.body.response_format).toBeUndefined();
  });

  it('asks for JSON-schema structured output when a schema is given', async () => {
    server = await startChatServer((_req, res) => answer(res, '{"ok":true}'));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
    await model.complete({ system: 's', user: 'u', jsonSchema: schema });

    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } });
  });

  it('falls back to JSON mode when the server rejects json_schema, and remembers it', async () => {
    server = await startChatServer((req, res) =>
      req.body.response_format?.type === 'json_schema' ? fail(res, 400) : answer(res, '{"ok":true}'),
    );
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect((await model.complete({ system: 'sys', user: 'u', jsonSchema: schema })).text).toBe('{"ok":true}');
    await model.complete({ system: 'sys', user: 'u', jsonSchema: schema });

    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
    // In JSON mode the schema travels in the prompt instead.
    expect(server.requests[1]!.body.messages?.[0]?.content).toContain('"ok"');
  });

  it('assembles a streamed answer from server-sent events', async () => {
    server = await startChatServer((req, res) => {
      expect(req.body.stream).toBe(true);
      return streamAnswer(res, ['{"chief', '_complaint":', ' "cough ', 'for 3 days"}'], 'length');
    });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', stream: true });
    const result = await model.complete({ system: 's', user: 'u' });

    expect(result).toEqual({ text: '{"chief_complaint": "cough for 3 days"}', finishReason: 'length' });
    expect(server.requests[0]!.headers.accept).toBe('text/event-stream');
  });

  it('reports an error event inside a stream as engine unavailable', async () => {
    server = await startChatServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ error: { message: SECRET } })}\n\n`);
    });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', stream: true });
    const err = await rejection(model.complete({ system: 's', user: SECRET }));
    expect(err.message).toMatch(/error while streaming/);
  });

  it('waits for Retry-After on a 429 and then succeeds', async () => {
    server = await startChatServer((_req, res, index) => (index === 0 ? fail(res, 429, { 'retry-after': '1' }) : answer(res, 'fine')));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 1 });
    const started = performance.now();
    const result = await model.complete({ system: 's', user: 'u' });

    expect(result.text).toBe('fine');
    expect(server.requests).toHaveLength(2);
    // The backoff alone would be ~1 ms: the wait of about a second is the server's Retry-After.
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 and returns the next good answer', async () => {
    server = await startChatServer((_req, res, index) => (index === 0 ? fail(res, 500) : answer(res, 'recovered')));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 5 });
    expect((await model.complete({ system: 's', user: 'u' })).text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with a 503 after maxRetries when the server keeps failing', async () => {
    server = await startChatServer((_req, res) => fail(res, 502));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', maxRetries: 2, retryBaseDelayMs: 5 });
    const err = await rejection(model.complete({ system: 's', user: SECRET }));
    expect(err.message).toMatch(/502/);
    expect(server.requests).toHaveLength(3);
  });

  it('does not wait for a Retry-After longer than it allows, and passes it on', async () => {
    server = await startChatServer((_req, res) => fail(res, 503, { 'retry-after': '120' }));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', maxRetryDelayMs: 1000 });
    const err = await rejection(model.complete({ system: 's', user: 'u' }));
    expect(server.requests).toHaveLength(1);
    expect(err.headers['Retry-After']).toBe('120');
  });

  it('does not retry a refused request such as a wrong API key', async () => {
    server = await startChatServer((_req, res) => fail(res, 401));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 5 });
    const err = await rejection(model.complete({ system: 's', user: 'u' }));
    expect(err.message).toMatch(/401/);
    expect(server.requests).toHaveLength(1);
  });

  it('answers 503 when the server is slower than the timeout', async () => {
    server = await startChatServer(() => undefined); // accepts the request and never answers
    // Attempts are counted where they are sent: on a loaded machine the server may not have read the body in 200 ms.
    let attempts = 0;
    const counting: typeof fetch = (input, init) => (attempts++, fetch(input, init));
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200, maxRetries: 3, fetch: counting });
    const err = await rejection(model.complete({ system: 's', user: 'u' }));
    expect(err.message).toMatch(/did not answer within/);
    // A timeout is not retried: one attempt, not maxRetries + 1.
    expect(attempts).toBe(1);
  });

  it('times out a stream that stalls after its first event', async () => {
    server = await startChatServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'partial' } }] })}\n\n`);
    });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', stream: true, timeoutMs: 300 });
    const err = await rejection(model.complete({ system: 's', user: 'u' }));
    expect(err.message).toMatch(/did not answer within/);
  });

  it('answers 503 when nothing listens on the address', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const model = createOpenAiCompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 1, retryBaseDelayMs: 5 });
    const err = await rejection(model.complete({ system: 's', user: SECRET }));
    expect(err.message).toBe('language model server is unreachable');
  });

  it('stops when the caller aborts, without retrying', async () => {
    server = await startChatServer(() => undefined);
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' });
    const controller = new AbortController();
    const pending = model.complete({ system: 's', user: 'u', signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('reads Retry-After in seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({}), now)).toBeUndefined();
  });
});
