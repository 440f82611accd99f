import { describe, it, expect, afterEach } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';
import { createOpenAiCompatibleRecognizer } from '../../main/engines/speech/openai-compatible.js';
import { retryAfterMs } from '../../main/engines/openai/http-client.js';
import { DomainError } from '../../main/services/errors.js';

interface Received { path: string; auth?: string; fields: Record<string, string[]>; file?: Buffer }

type Handler = (req: Received, res: http.ServerResponse, n: number) => void;

let server: http.Server | null = null;

/** A real HTTP server on loopback that parses the multipart upload like a Whisper server would. */
async function startServer(handler: Handler): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = http.createServer((req, res) => {
    const r: Received = { path: req.url ?? '', auth: req.headers.authorization, fields: {} };
    const bb = busboy({ headers: req.headers });
    bb.on('field', (name, value) => { (r.fields[name] ??= []).push(value); });
    bb.on('file', (_name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => { r.file = Buffer.concat(chunks); });
    });
    bb.on('close', () => { received.push(r); handler(r, res, received.length); });
    req.pipe(bb);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, received };
}

afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = null;
  }
});

const verbose = {
  task: 'transcribe', language: 'english', duration: 2.1, text: ' Chest pain, since Monday.',
  words: [
    { word: ' Chest', start: 0.1, end: 0.5, probability: 0.9 },
    { word: ' pain,', start: 0.5, end: 0.9, probability: 0.8 },
    { word: ' since', start: 1.0, end: 1.3, probability: 0.7 },
    { word: ' Monday.', start: 1.3, end: 1.9, probability: 0.6 },
  ],
  segments: [{ id: 0, start: 0, end: 2.0, text: ' Chest pain, since Monday.', avg_logprob: -0.2 }],
};

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const pcm = Int16Array.from({ length: 16000 }, (_, i) => Math.round(3000 * Math.sin(i / 5)));

describe('OpenAI-compatible recogniser', () => {
  it('uploads a WAV asking for word timestamps and maps the answer to timed words', async () => {
    const { url, received } = await startServer((_r, res) => json(res, 200, verbose));
    const engine = createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'whisper-small', apiKey: 'sk-test' });
    const result = await engine.transcribe(pcm, { language: 'en-US' });

    expect(engine.name).toBe('openai-compatible');
    expect(result.text).toBe('Chest pain, since Monday.');
    expect(result.words.map((w) => w.word)).toEqual(['chest', 'pain', 'since', 'monday']);
    expect(result.words[1]).toMatchObject({ start: 0.5, end: 0.9, confidence: 0.8 });
    expect(result.confidence).toBeCloseTo(0.75);

    const r = received[0]!;
    expect(r.path).toBe('/v1/audio/transcriptions');
    expect(r.auth).toBe('Bearer sk-test');
    expect(r.fields.model).toEqual(['whisper-small']);
    expect(r.fields.response_format).toEqual(['verbose_json']);
    expect(r.fields['timestamp_granularities[]']).toContain('word');
    expect(r.fields.language).toEqual(['en']);
    expect(r.file!.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(r.file!.readUInt32LE(24)).toBe(16000);
    expect(r.file!.length).toBe(44 + pcm.length * 2);
  });

  it('accepts a base URL that already ends in /v1', async () => {
    const { url, received } = await startServer((_r, res) => json(res, 200, verbose));
    await createOpenAiCompatibleRecognizer({ baseUrl: `${url}/v1/`, model: 'm' }).transcribe(pcm, { language: 'en' });
    expect(received[0]!.path).toBe('/v1/audio/transcriptions');
    expect(received[0]!.auth).toBeUndefined();
  });

  it('retries a busy server, honouring Retry-After, then succeeds', async () => {
    const { url, received } = await startServer((_r, res, n) =>
      n <= 2 ? json(res, 503, { error: 'busy' }, { 'retry-after': '0' }) : json(res, 200, verbose));
    const result = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm' }).transcribe(pcm, { language: 'en' });
    expect(received).toHaveLength(3);
    expect(result.words).toHaveLength(4);
  });

  it('gives up after its retries with a 503 engine_unavailable that does not echo the server body', async () => {
    const { url, received } = await startServer((_r, res) => json(res, 500, { error: 'patient John Doe' }, { 'retry-after': '0' }));
    const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetries: 1 })
      .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(503);
    expect((err as DomainError).message).toContain('HTTP 500');
    expect((err as DomainError).message).not.toContain('John');
    expect(received).toHaveLength(2);
  });

  it('does not retry a request the server rejects (401)', async () => {
    const { url, received } = await startServer((_r, res) => json(res, 401, { error: 'bad key' }));
    const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetries: 3 })
      .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('engine_unavailable');
    expect(received).toHaveLength(1);
  });

  it('reports a server that is down as engine_unavailable', async () => {
    const { url } = await startServer(() => undefined);
    server!.close();
    server = null;
    const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetries: 1, maxRetryDelayMs: 0 })
      .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('engine_unavailable');
    expect((err as DomainError).message).toBe('OpenAI-compatible speech server is unreachable');
  });

  it('times out a server that never answers', async () => {
    await startServer(() => undefined).then(async ({ url }) => {
      const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', timeoutMs: 200, maxRetries: 0 })
        .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
      expect((err as DomainError).status).toBe(503);
      expect((err as DomainError).message).toContain('200 ms');
    });
  });

  it('retries a busy server without Retry-After on its own backoff, and a refused connection too', async () => {
    const { url, received } = await startServer((_r, res, n) => (n === 1 ? json(res, 502, { error: 'busy' }) : json(res, 200, verbose)));
    const result = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', retryBaseDelayMs: 5 }).transcribe(pcm, { language: 'en' });
    expect(received).toHaveLength(2);
    expect(result.words).toHaveLength(4);
    // The upload is built again for the second attempt: the server read the whole WAV both times.
    expect(received.map((r) => r.file?.length)).toEqual([44 + pcm.length * 2, 44 + pcm.length * 2]);
  });

  it('does not wait for a Retry-After longer than it allows: it gives up at once and passes it on', async () => {
    const { url, received } = await startServer((_r, res) => json(res, 503, { error: 'busy' }, { 'retry-after': '120' }));
    const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetryDelayMs: 1000 })
      .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(503);
    expect((err as DomainError).headers['Retry-After']).toBe('120');
    expect(received).toHaveLength(1);
  });

  it('does not retry a timeout (a server slower than the limit would be as slow again)', async () => {
    const { url } = await startServer(() => undefined);
    // Attempts are counted where they are sent: on a loaded machine the server may not have read the upload in 200 ms.
    let attempts = 0;
    const counting: typeof fetch = (input, init) => (attempts++, fetch(input, init));
    const err = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', timeoutMs: 200, maxRetries: 2, retryBaseDelayMs: 5, fetch: counting })
      .transcribe(pcm, { language: 'en' }).catch((e: unknown) => e);
    expect((err as DomainError).message).toBe('OpenAI-compatible speech server did not answer within 200 ms (CLINDOC_ASR_TIMEOUT_MS)');
    expect(attempts).toBe(1);
  });

  it('stops when the caller aborts while the server is working, without retrying', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const { url, received } = await startServer(() => arrived()); // takes the upload, never answers
    const controller = new AbortController();
    const pending = createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetries: 3 })
      .transcribe(pcm, { language: 'en', signal: controller.signal });
    await inFlight;
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
    expect(received).toHaveLength(1);
  });

  it('stops when the caller aborts while it waits to retry', async () => {
    let answered!: () => void;
    const busy = new Promise<void>((resolve) => (answered = resolve));
    const { url, received } = await startServer((_r, res) => {
      json(res, 503, { error: 'busy' }, { 'retry-after': '20' });
      answered();
    });
    const controller = new AbortController();
    const pending = createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm', maxRetries: 3 })
      .transcribe(pcm, { language: 'en', signal: controller.signal });
    await busy;
    controller.abort(new Error('caller gave up'));
    // Rejected by the abort, not after the 20 s the server asked for (the test would time out first).
    await expect(pending).rejects.toThrow('caller gave up');
    expect(received).toHaveLength(1);
  });

  it('spreads segment text over the segment when the server gives no word times', async () => {
    const { url } = await startServer((_r, res) => json(res, 200, {
      text: 'no fever today',
      segments: [{ start: 1, end: 2.2, text: ' no fever today', avg_logprob: -0.1 }],
    }));
    const result = await createOpenAiCompatibleRecognizer({ baseUrl: url, model: 'm' }).transcribe(pcm, { language: 'en' });
    expect(result.words.map((w) => w.word)).toEqual(['no', 'fever', 'today']);
    expect(result.words[0]!.start).toBe(1);
    expect(result.words[2]!.end).toBeCloseTo(2.2);
    expect(result.words[0]!.confidence).toBeCloseTo(Math.exp(-0.1));
  });
});

describe('Retry-After, as the shared OpenAI-compatible client reads it', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
