/**
 * LanguageModel over an OpenAI-compatible chat-completions server: vLLM, llama.cpp's
 * `llama-server`, Ollama (`/v1`), LM Studio and hosted services. This file holds the whole wire
 * format. Prompts and answers are patient data: nothing here logs them or puts them in errors.
 */
import type { CompletionRequest, CompletionResult, LanguageModel } from '../../services/language-model.js';
import { engineUnavailable } from '../../services/errors.js';
import { createOpenAiHttpClient, type OpenAiHttpOptions } from '../openai/http-client.js';
import { readSseData } from './sse.js';

export { retryAfterMs } from '../openai/http-client.js';

/**
 * The connection fields (`apiKey`, `timeoutMs`, `maxRetries`, `retryBaseDelayMs`,
 * `maxRetryDelayMs`, `fetch`) are the shared client's (engines/openai/http-client.ts, same
 * defaults); here they come from `CLINDOC_LLM_API_KEY`, `CLINDOC_LLM_TIMEOUT_MS` and
 * `CLINDOC_LLM_MAX_RETRIES`.
 */
export interface OpenAiCompatibleOptions extends Omit<OpenAiHttpOptions, 'server' | 'timeoutHint'> {
  /** Server base URL including the version path, e.g. `http://127.0.0.1:8080/v1`. Env `CLINDOC_LLM_BASE_URL`. */
  baseUrl: string;
  /** Model name the server knows. Env `CLINDOC_LLM_MODEL`. */
  model: string;
  /** Ask for server-sent events and assemble the answer from deltas. Env `CLINDOC_LLM_STREAM`; default false. */
  stream?: boolean;
}

/** How a JSON schema is passed: native structured output, JSON mode, or only in the prompt. */
type SchemaMode = 'json_schema' | 'json_object' | 'prompt';
const DOWNGRADE: Record<SchemaMode, SchemaMode | null> = { json_schema: 'json_object', json_object: 'prompt', prompt: null };

interface ChatChoice {
  message?: { content?: string | null };
  delta?: { content?: string | null };
  finish_reason?: string | null;
}

/**
 * Creates a LanguageModel that talks to `POST {baseUrl}/chat/completions` through the shared
 * OpenAI-compatible client (`../openai/http-client.ts`: retries with backoff honouring
 * `Retry-After`, abort, time limit, a 503 DomainError when the server is unreachable, keeps
 * failing or times out); this file holds the chat wire format and the structured-output steps.
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): LanguageModel {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const stream = options.stream ?? false;
  // The options' key, time limit, retries and fetch are the client's own.
  const http = createOpenAiHttpClient({ ...options, server: 'language model server', timeoutHint: 'set by CLINDOC_LLM_TIMEOUT_MS' });
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

  return {
    name: 'openai-compatible',
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      let mode: SchemaMode = request.jsonSchema ? schemaMode : 'prompt';
      const result = await http.post({
        url: endpoint,
        accept: stream ? 'text/event-stream' : 'application/json',
        body: () => ({ body: JSON.stringify(buildBody(request, mode)), contentType: 'application/json' }),
        read: (response) => (stream ? readStream(response) : readJson(response)),
        ...(request.signal ? { signal: request.signal } : {}),
        // A server that cannot do structured output usually answers 400/422: step down and ask again.
        again: (status) => {
          if ((status !== 400 && status !== 422) || !request.jsonSchema || !DOWNGRADE[mode]) return false;
          mode = DOWNGRADE[mode] as SchemaMode;
          return true;
        },
      });
      if (request.jsonSchema) schemaMode = mode;
      return result;
    },
  };
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
