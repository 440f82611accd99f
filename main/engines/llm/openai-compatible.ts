/**
 * LanguageModel over an OpenAI-compatible chat-completions server: vLLM, llama.cpp's
 * `llama-server`, Ollama (`/v1`), LM Studio and hosted services. This file holds the whole wire
 * format. Prompts and answers are patient data: nothing here logs them or puts them in errors.
 */
import type { CompletionRequest, CompletionResult, LanguageModel } from '../../services/language-model.js';
import { DomainError, engineUnavailable } from '../../services/errors.js';
import { readSseData } from './sse.js';

export interface OpenAiCompatibleOptions {
  /** Server base URL including the version path, e.g. `http://127.0.0.1:8080/v1`. Env `CLINDOC_LLM_BASE_URL`. */
  baseUrl: string;
  /** Model name the server knows. Env `CLINDOC_LLM_MODEL`. */
  model: string;
  /** Bearer token, sent only when set. Env `CLINDOC_LLM_API_KEY`. */
  apiKey?: string;
  /** Limit for one HTTP attempt, answer included. Env `CLINDOC_LLM_TIMEOUT_MS`; default 120000. */
  timeoutMs?: number;
  /** Further attempts after a 429, a 5xx or a refused connection. Env `CLINDOC_LLM_MAX_RETRIES`; default 2. */
  maxRetries?: number;
  /** Injected fetch (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
  /** Ask for server-sent events and assemble the answer from deltas. Env `CLINDOC_LLM_STREAM`; default false. */
  stream?: boolean;
  /** First backoff delay when the server gives no `Retry-After`; doubles each attempt. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts; a `Retry-After` beyond it ends the retries. Default 30000. */
  maxRetryDelayMs?: number;
}

/** How a JSON schema is passed: native structured output, JSON mode, or only in the prompt. */
type SchemaMode = 'json_schema' | 'json_object' | 'prompt';
const DOWNGRADE: Record<SchemaMode, SchemaMode | null> = { json_schema: 'json_object', json_object: 'prompt', prompt: null };

type Attempt = { result: CompletionResult } | { failed: Response };

interface ChatChoice {
  message?: { content?: string | null };
  delta?: { content?: string | null };
  finish_reason?: string | null;
}

/**
 * Creates a LanguageModel that talks to `POST {baseUrl}/chat/completions`.
 * Retries 429/5xx and refused connections with exponential backoff honouring `Retry-After`;
 * answers a 503 DomainError when the server is unreachable, keeps failing or times out.
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): LanguageModel {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 2;
  const baseDelay = options.retryBaseDelayMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;
  const stream = options.stream ?? false;
  // Learned once per server: a server that rejected json_schema is not asked again.
  let schemaMode: SchemaMode = 'json_schema';

  const buildBody = (request: CompletionRequest, mode: SchemaMode): Record<string, unknown> => {
    let system = request.system;
    const body: Record<string, unknown> = { model: options.model, stream };
    if (request.jsonSchema) {
      if (mode === 'json_schema') {
        body.response_format = { type: 'json_schema', json_schema: { name: 'answer', schema: request.jsonSchema, strict: true } };
      } else {
        if (mode === 'json_object') body.response_format = { type: 'json_object' };
        system += `\n\nAnswer with one JSON object, and nothing else, that matches this JSON Schema:\n${JSON.stringify(request.jsonSchema)}`;
      }
    }
    body.messages = [
      { role: 'system', content: system },
      { role: 'user', content: request.user },
    ];
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) body.temperature = request.temperature;
    return body;
  };

  const attempt = async (request: CompletionRequest, mode: SchemaMode): Promise<Attempt> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    try {
      const response = await doFetch(endpoint, { method: 'POST', headers, body: JSON.stringify(buildBody(request, mode)), signal });
      if (!response.ok) return { failed: response };
      return { result: stream ? await readStream(response) : await readJson(response) };
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason ?? err;
      if (timeout.aborted) throw engineUnavailable(`language model server did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (CLINDOC_LLM_TIMEOUT_MS)`);
      if (err instanceof DomainError) throw err;
      throw new NetworkFailure(err);
    }
  };

  return {
    name: 'openai-compatible',
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      let mode: SchemaMode = request.jsonSchema ? schemaMode : 'prompt';
      let retries = 0;
      for (;;) {
        let outcome: Attempt;
        try {
          outcome = await attempt(request, mode);
        } catch (err) {
          if (!(err instanceof NetworkFailure)) throw err;
          if (retries >= maxRetries) throw new DomainError('engine_unavailable', 'language model server is unreachable', { cause: err.cause });
          await wait(backoff(baseDelay, maxDelay, retries++), request.signal);
          continue;
        }
        if ('result' in outcome) {
          if (request.jsonSchema) schemaMode = mode;
          return outcome.result;
        }
        const { status, headers: responseHeaders, body } = outcome.failed;
        const retryAfter = retryAfterMs(responseHeaders);
        // The error body may echo the prompt: drop it unread.
        await body?.cancel().catch(() => undefined);
        // A server that cannot do structured output usually answers 400/422: step down and ask again.
        if ((status === 400 || status === 422) && request.jsonSchema && DOWNGRADE[mode]) {
          mode = DOWNGRADE[mode] as SchemaMode;
          continue;
        }
        const retryable = status === 408 || status === 429 || status >= 500;
        if (!retryable) throw engineUnavailable(`language model server refused the request (HTTP ${status})`);
        const delay = retryAfter ?? backoff(baseDelay, maxDelay, retries);
        if (retries >= maxRetries || delay > maxDelay) {
          const headers = retryAfter !== undefined ? { 'Retry-After': String(Math.ceil(retryAfter / 1000)) } : undefined;
          throw new DomainError('engine_unavailable', `language model server is failing (HTTP ${status})`, { headers });
        }
        retries++;
        await wait(delay, request.signal);
      }
    },
  };
}

/** A connection-level failure (refused, reset, DNS): retried, then reported as unreachable. */
class NetworkFailure extends Error {
  constructor(cause: unknown) {
    super('network failure', { cause });
  }
}

function contentOf(choice: ChatChoice | undefined): string | undefined {
  const content = choice?.message?.content ?? choice?.delta?.content;
  return typeof content === 'string' ? content : undefined;
}

async function readJson(response: Response): Promise<CompletionResult> {
  let payload: { choices?: ChatChoice[] };
  try {
    payload = (await response.json()) as { choices?: ChatChoice[] };
  } catch {
    throw engineUnavailable('language model server sent an answer that is not JSON');
  }
  const choice = payload.choices?.[0];
  const text = contentOf(choice);
  if (text === undefined) throw engineUnavailable('language model server sent an answer without content');
  return { text, ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}) };
}

async function readStream(response: Response): Promise<CompletionResult> {
  if (!response.body) throw engineUnavailable('language model server sent an empty stream');
  let text = '';
  let finishReason: string | undefined;
  let sawChunk = false;
  for await (const data of readSseData(response.body)) {
    if (data.trim() === '[DONE]') break;
    let chunk: { choices?: ChatChoice[]; error?: unknown };
    try {
      chunk = JSON.parse(data) as { choices?: ChatChoice[]; error?: unknown };
    } catch {
      throw engineUnavailable('language model server sent a malformed stream event');
    }
    if (chunk.error) throw engineUnavailable('language model server reported an error while streaming');
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChunk = true;
    text += contentOf(choice) ?? '';
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!sawChunk) throw engineUnavailable('language model server sent a stream without content');
  return { text, ...(finishReason ? { finishReason } : {}) };
}

/** `retry-after-ms` (OpenAI) or `Retry-After` in seconds or as an HTTP date, in milliseconds. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter (50-100% of the step) so clients do not retry in lockstep. */
function backoff(base: number, max: number, retry: number): number {
  const step = Math.min(max, base * 2 ** retry);
  return step / 2 + Math.random() * (step / 2);
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
