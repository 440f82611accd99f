/**
 * OpenAI-compatible servers as engines: the device's (CLINDOC_LLM_BASE_URL, CLINDOC_ASR_BASE_URL)
 * and those an account sets up in Settings > Engines. A server an account gives is tested with a
 * real call before it is saved, and every known server is checked in the background
 * (`GET {base}/models`, which carries no patient data), so `/v1/engines` shows one that is down
 * before a physician presses a button.
 */
import type { ClindocConfig } from './config.js';
import { DomainError, engineUnavailable } from './services/errors.js';
import type { EngineHealth } from './services/engines/engine-health.js';
import type { LanguageModel } from './services/language-model.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import type { EngineServer } from './services/transcriptions/engine-settings.js';
import { createOpenAiCompatibleModel } from './engines/llm/openai-compatible.js';
import { createOpenAiCompatibleRecognizer } from './engines/speech/openai-compatible.js';

/** A language model on `server`, with the device's timeout and retries. */
export function serverModel(config: ClindocConfig, server: EngineServer, retries?: number): LanguageModel {
  return createOpenAiCompatibleModel({
    baseUrl: server.url, model: server.model, timeoutMs: config.llmTimeoutMs, stream: config.llmStream,
    ...(server.apiKey ? { apiKey: server.apiKey } : {}),
    ...(retries !== undefined ? { maxRetries: retries } : config.llmMaxRetries !== undefined ? { maxRetries: config.llmMaxRetries } : {}),
  });
}

/** A recogniser on `server`, with the device's timeout and retries. */
export function serverRecognizer(config: ClindocConfig, server: EngineServer, retries = config.asrMaxRetries): SpeechRecognizer {
  return createOpenAiCompatibleRecognizer({
    baseUrl: server.url, model: server.model, timeoutMs: config.asrTimeoutMs, maxRetries: retries, ...(server.apiKey ? { apiKey: server.apiKey } : {}),
  });
}

/**
 * One real call, no retries: a short completion, or half a second of silence to transcribe. A
 * server that answers an error, garbage or nothing is refused with what happened.
 */
export async function testServer(config: ClindocConfig, task: 'speech' | 'text', server: EngineServer): Promise<void> {
  if (task === 'text') {
    const answer = await serverModel(config, server, 0).complete({ system: 'Answer with the single word OK.', user: 'Are you there?', maxTokens: 8, temperature: 0 });
    if (!answer.text.trim()) throw engineUnavailable('the server answered with no text');
    return;
  }
  await serverRecognizer(config, server, 0).transcribe(new Int16Array(8000), { language: 'en' });
}

/** Asks `GET {base}/models` of a server; throws a reason fit for any account when it does not answer 2xx. */
export async function checkServer(server: EngineServer, timeoutMs: number, doFetch: typeof fetch = fetch): Promise<void> {
  const base = server.url.replace(/\/+$/, '').replace(/\/audio\/transcriptions$|\/chat\/completions$/, '');
  let res: Response;
  try {
    res = await doFetch(`${base}/models`, { headers: server.apiKey ? { authorization: `Bearer ${server.apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw engineUnavailable((err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'the server could not be reached');
  }
  await res.body?.cancel();
  if (!res.ok) throw engineUnavailable(`the server answered HTTP ${res.status}`);
}

/**
 * Checks each server `servers()` names every `everyMs` (0: never) and records the outcome under its
 * registry name. Returns a stop function. Checks never overlap: a slow one delays the next.
 */
export function startServerChecks(options: {
  servers: () => Array<{ key: string; server: EngineServer }>;
  health: EngineHealth;
  everyMs: number;
  timeoutMs: number;
}): () => void {
  if (options.everyMs <= 0) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const round = async (): Promise<void> => {
    for (const { key, server } of options.servers()) {
      const started = performance.now();
      try {
        await checkServer(server, options.timeoutMs);
        options.health.success(key, performance.now() - started);
      } catch (err) {
        options.health.failure(key, err instanceof DomainError ? err.message : 'the check failed', performance.now() - started, { check: true });
      }
    }
  };
  const next = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void round().finally(next), options.everyMs);
    timer.unref();
  };
  void round().finally(next);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
