import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../main/config.js';
import { composeEngines, type EngineRegistry } from '../../main/compose-engines.js';
import { DomainError } from '../../main/services/errors.js';
import { createRobustVad, createSileroVad } from '../../main/engines/vad/index.js';
import type { NoteGenerationInput } from '../../main/services/notes/ports.js';
import { answer, startChatServer, type ChatServer } from '../llm/chat-server.js';
import { startServer, waitFor } from '../support/server.js';

/**
 * Failures that degrade, not stall: the engine registry as the app builds it, pointed at loopback
 * servers that fail, hang and answer garbage. A note falls back to the embedded writer and a
 * recording to the embedded recogniser, each marked; a server known down is not waited on again
 * until its cool-down has passed; an account that asked to fail gets the failure.
 */
const TRANSCRIPT = '[doctor] What brings you in today?\n[patient] I have had a cough for three days and a fever.\n[doctor] Any chest pain?\n[patient] No.';
const input = (): NoteGenerationInput => ({ transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson: true }, language: 'en' });

let server: ChatServer | undefined;
let registry: EngineRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  await server?.close();
  registry = server = undefined;
});

/** A loopback transcription server (`/v1/audio/transcriptions`) that answers each request with `reply`, or never. */
async function speechServer(reply: ((res: ServerResponse) => void) | 'hang'): Promise<ChatServer> {
  const requests: ChatServer['requests'] = [];
  const http = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: {} });
      if (reply !== 'hang') reply(res);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`, requests, checks: [],
    close: () => new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    }),
  };
}

function registryFor(env: Record<string, string>): EngineRegistry {
  // No background checks here: each case drives the engine's health by its own calls.
  const config = loadConfig({ CLINDOC_DATA_DIR: '/tmp/clindoc-fallback-unused', CLINDOC_LLM_MAX_RETRIES: '0', CLINDOC_ASR_MAX_RETRIES: '0', CLINDOC_ENGINE_CHECK_SECONDS: '0', ...env });
  registry = composeEngines(config, {
    logger: { info: () => undefined }, installedModels: () => [], batchVad: () => createRobustVad({ model: createSileroVad({ threshold: 0.5 }), minCoverage: 0.8 }),
    pocketsphinxFiles: { medical: false, resourcesDir: config.resources.asrDir },
  });
  return registry;
}
const llm = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({ CLINDOC_LLM_BASE_URL: url, CLINDOC_LLM_MODEL: 'clinic-model', ...extra });
const failWith = (status: number) => (_req: unknown, res: ServerResponse): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end('{"error":{"message":"boom"}}');
};

describe('a note whose language-model server fails', () => {
  it('is written by the embedded writer, marked, and the server is not waited on again during its cool-down', async () => {
    server = await startChatServer(failWith(500));
    const writer = registryFor(llm(server.baseUrl)).noteWriter('openai-compatible');
    const note = await writer.write(input());
    expect(note.markdown).toMatch(/cough/i);
    expect(note.generatedBy).toEqual({
      engine: 'embedded',
      fallbackFrom: { engine: 'openai-compatible', model: 'clinic-model', reason: expect.stringMatching(/HTTP 500/) },
    });
    expect(server.requests).toHaveLength(1);
    expect(registry!.health('text', 'openai-compatible')).toMatchObject({ status: 'down', lastFailure: expect.stringMatching(/HTTP 500/), lastSuccessAt: null });

    const again = await writer.write(input());
    expect(again.generatedBy?.fallbackFrom?.reason).toMatch(/recently; not tried again yet/);
    expect(server.requests).toHaveLength(1); // straight to the fallback
  });

  it('asks a model that answers garbage three times in all, then falls back', async () => {
    server = await startChatServer((_req, res) => answer(res, 'I am not JSON at all.'));
    const note = await registryFor(llm(server.baseUrl)).noteWriter('openai-compatible').write(input());
    expect(server.requests).toHaveLength(3);
    expect(note.generatedBy?.fallbackFrom?.reason).toMatch(/no usable note in 3 answers/);
  });

  it('gives up on a hung server after CLINDOC_LLM_TIMEOUT_MS and falls back', async () => {
    server = await startChatServer(() => undefined); // never answers
    const note = await registryFor(llm(server.baseUrl, { CLINDOC_LLM_TIMEOUT_MS: '300' })).noteWriter('openai-compatible').write(input());
    expect(note.generatedBy?.fallbackFrom?.reason).toBe('language model server did not answer within 300 ms (CLINDOC_LLM_TIMEOUT_MS)');
  });

  it('fails instead when asked to (CLINDOC_ENGINE_FAILURE=fail), and a later success shows the server up', async () => {
    let down = true;
    server = await startChatServer((req, res, i) => (down ? failWith(503)(req, res) : answer(res, JSON.stringify({
      subjective: `Cough for three days (${i}).`, objective: 'Not examined.', assessment: 'Cough.', plan: ['Rest.'],
    }))));
    const writer = registryFor(llm(server.baseUrl, { CLINDOC_ENGINE_FAILURE: 'fail' })).noteWriter('openai-compatible');
    const err = await writer.write(input()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('engine_unavailable');
    down = false;
    const note = await writer.write(input());
    expect(note.generatedBy).toEqual({ engine: 'openai-compatible', model: 'clinic-model' });
    expect(registry!.health('text', 'openai-compatible')).toMatchObject({ status: 'up', lastFailure: expect.stringMatching(/HTTP 503/), latencyMs: expect.any(Number) });
  });
});

describe('a recording whose speech server fails', () => {
  it('is recognised by the embedded recogniser, marked, after CLINDOC_ASR_MAX_RETRIES further attempts', async () => {
    server = await speechServer((res) => failWith(500)(undefined, res));
    const recognizer = registryFor({ CLINDOC_ASR_BASE_URL: server.baseUrl, CLINDOC_ASR_MAX_RETRIES: '1' }).recognizer('openai-compatible');
    const result = await recognizer.transcribe(new Int16Array(16000), { language: 'en' });
    expect(server.requests).toHaveLength(2);
    expect(result.generatedBy).toEqual({
      engine: 'pocketsphinx', model: expect.any(String),
      fallbackFrom: { engine: 'openai-compatible', model: 'whisper-1', reason: 'OpenAI-compatible speech server is failing (HTTP 500)' },
    });
  });

  it('gives up on a hung speech server after CLINDOC_ASR_TIMEOUT_MS', async () => {
    server = await speechServer('hang');
    const recognizer = registryFor({ CLINDOC_ASR_BASE_URL: server.baseUrl, CLINDOC_ASR_TIMEOUT_MS: '300' }).recognizer('openai-compatible');
    const result = await recognizer.transcribe(new Int16Array(16000), { language: 'en' });
    expect(result.generatedBy?.fallbackFrom?.reason).toBe('OpenAI-compatible speech server did not answer within 300 ms (CLINDOC_ASR_TIMEOUT_MS)');
  });
});

describe('POST /v1/notes while the language-model server is down', () => {
  it('stores the embedded note, marked in generatedBy and first in its review list', { timeout: 150_000 }, async () => {
    server = await startChatServer(failWith(500));
    const s = await startServer(llm(server.baseUrl, { CLINDOC_LLM_MAX_RETRIES: '0' }));
    try {
      const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson: false } }) });
      expect(res.status).toBe(202);
      const noteId = (await res.json()).data.noteId as string;
      // The first note of a fresh server loads the embedded writer's lexicons: slow on a busy machine.
      const note = await waitFor(async () => {
        const body = await (await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).json();
        return body.data.status === 'STATUS_DONE' || body.data.status === 'STATUS_FAILED' ? body.data : undefined;
      }, 90_000);
      expect(note.status).toBe('STATUS_DONE');
      expect(note.payload.generatedBy).toEqual({ engine: 'embedded', fallbackFrom: { engine: 'openai-compatible', model: 'clinic-model', reason: expect.stringMatching(/HTTP 500/) } });
      expect(note.payload.json.review[0]).toMatchObject({ kind: 'engine', text: 'written by the embedded writer instead of clinic-model', action: 'marked' });
    } finally {
      await s.close();
    }
  });
});
