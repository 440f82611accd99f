/**
 * What the request thread and a compute worker say to each other. Errors cross as plain data:
 * a DomainError keeps its kind, message and headers (its message is written to be shown); any other
 * failure keeps only its name, code and stack frames, since its message may quote patient text.
 */
import { DomainError, type ErrorKind } from '../../services/errors.js';
import type { ComputeTask, HostCall } from '../../services/compute/ports.js';

export type SentError =
  | { domain: { kind: ErrorKind; message: string; headers: Record<string, string> } }
  | { name: string; code?: string; frames?: string };

export type ToWorker =
  | { type: 'task'; id: number; task: ComputeTask; args: unknown[] }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: SentError };

export type FromWorker =
  | { type: 'ready' }
  /** Setup that is the same for every input (a code table read, an index built) begins or ends: not counted in the budget. */
  | { type: 'untimed'; on: boolean }
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: SentError }
  | { type: 'call'; id: number; fn: HostCall; args: unknown[] };

export function sendableError(err: unknown): SentError {
  if (err instanceof DomainError) return { domain: { kind: err.kind, message: err.message, headers: err.headers } };
  const e = (err ?? {}) as { name?: unknown; code?: unknown; stack?: unknown };
  return {
    name: typeof e.name === 'string' ? e.name : 'Error',
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.stack === 'string' ? { frames: e.stack.split('\n').slice(1, 5).map((l) => l.trim()).join(' | ') } : {}),
  };
}

/** The error on this side of the thread: a DomainError again, or an Error that names what failed without its message. */
export function receivedError(sent: SentError): Error {
  if ('domain' in sent) return new DomainError(sent.domain.kind, sent.domain.message, { headers: sent.domain.headers });
  const err = new Error(`compute task failed (${sent.name})`) as Error & { code?: string };
  err.name = sent.name;
  if (sent.code) err.code = sent.code;
  if (sent.frames) err.stack = `${sent.name}: compute task failed\n    ${sent.frames.split(' | ').join('\n    ')}`;
  return err;
}
