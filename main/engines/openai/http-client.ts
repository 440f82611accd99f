/**
 * The one HTTP client for OpenAI-compatible servers (chat completions for the language model,
 * audio transcriptions for the speech server): bearer authentication, a time limit per attempt,
 * retries of 408/425/429/5xx and refused connections with exponential backoff and jitter that
 * honour `Retry-After`, the caller's abort, and the mapping of every failure to a 503
 * `engine_unavailable` DomainError. Request and answer bodies are patient data: an error body is
 * dropped unread, and messages name the server and the HTTP status only.
 */
import { DomainError, engineUnavailable } from '../../services/errors.js';

export interface OpenAiHttpOptions {
  /** How messages name the server: `language model server`, `speech server`. */
  server: string;
  /** The setting a timeout message points to (`CLINDOC_LLM_TIMEOUT_MS`); none named when absent. */
  timeoutSetting?: string;
  /** Sent as `Authorization: Bearer`, only when set. */
  apiKey?: string;
  /** Limit for one attempt, the answer's body included. Default 120000. */
  timeoutMs?: number;
  /** Further attempts after a retryable status or a refused connection. Default 2. */
  maxRetries?: number;
  /** First backoff delay when the server gives no `Retry-After`; doubles each attempt. Default 500. */
  retryBaseDelayMs?: number;
  /** Longest wait between attempts; a `Retry-After` beyond it ends the retries (and is passed on). Default 30000. */
  maxRetryDelayMs?: number;
  /** Injected fetch (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
}

export interface OpenAiPost<T> {
  url: string;
  /** Built again for every attempt (a FormData or a stream cannot be sent twice; the JSON may change). */
  body: () => { body: BodyInit; contentType?: string };
  accept: string;
  /** Reads a 2xx answer, inside the attempt's time limit; a DomainError it throws ends the call as is. */
  read: (response: Response) => Promise<T>;
  /** The caller gave up: the call stops at once, without retrying, and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * A refused (non-retryable) status: return true to send again at once, not counted as a retry
   * (the language model steps down from structured output on 400/422); default: fail.
   */
  again?: (status: number) => boolean;
}

export interface OpenAiHttpClient {
  post<T>(request: OpenAiPost<T>): Promise<T>;
}

/** Statuses worth another attempt: the server is busy, overloaded or briefly down. */
const retryable = (status: number): boolean => status === 408 || status === 425 || status === 429 || status >= 500;

export function createOpenAiHttpClient(options: OpenAiHttpOptions): OpenAiHttpClient {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRetries = options.maxRetries ?? 2;
  const baseDelay = options.retryBaseDelayMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const doFetch = options.fetch ?? fetch;
  const within = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
  const timedOut = `${options.server} did not answer within ${within}${options.timeoutSetting ? ` (${options.timeoutSetting})` : ''}`;

  type Attempt<T> = { result: T } | { failed: Response };

  const attempt = async <T>(request: OpenAiPost<T>): Promise<Attempt<T>> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const { body, contentType } = request.body();
    const headers: Record<string, string> = { accept: request.accept };
    if (contentType) headers['content-type'] = contentType;
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    try {
      const response = await doFetch(request.url, { method: 'POST', headers, body, signal });
      if (!response.ok) return { failed: response };
      return { result: await request.read(response) };
    } catch (err) {
      if (request.signal?.aborted) throw request.signal.reason ?? err;
      if (timeout.aborted) throw engineUnavailable(timedOut);
      if (err instanceof DomainError) throw err;
      throw new NetworkFailure(err);
    }
  };

  return {
    async post<T>(request: OpenAiPost<T>): Promise<T> {
      let retries = 0;
      for (;;) {
        let outcome: Attempt<T>;
        try {
          outcome = await attempt(request);
        } catch (err) {
          if (!(err instanceof NetworkFailure)) throw err;
          if (retries >= maxRetries) throw new DomainError('engine_unavailable', `${options.server} is unreachable`, { cause: err.cause });
          await wait(backoff(baseDelay, maxDelay, retries++), request.signal);
          continue;
        }
        if ('result' in outcome) return outcome.result;
        const { status, headers, body } = outcome.failed;
        const retryAfter = retryAfterMs(headers);
        // The error body may echo the request: drop it unread.
        await body?.cancel().catch(() => undefined);
        if (!retryable(status)) {
          if (request.again?.(status)) continue;
          throw engineUnavailable(`${options.server} refused the request (HTTP ${status})`);
        }
        const delay = retryAfter ?? backoff(baseDelay, maxDelay, retries);
        if (retries >= maxRetries || delay > maxDelay) {
          const passOn = retryAfter !== undefined ? { 'Retry-After': String(Math.ceil(retryAfter / 1000)) } : undefined;
          throw new DomainError('engine_unavailable', `${options.server} is failing (HTTP ${status})`, { headers: passOn });
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
