/**
 * Domain errors: every failure the product can name carries a stable kind and the HTTP status the
 * local API answers with. The server's single error handler turns these into `{error, message}`.
 * Messages must never contain patient data (transcripts, notes, texts, schema values).
 */
export type ErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'precondition_required'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'work_over_budget'
  | 'engine_unavailable'
  | 'engine_bad_answer'
  | 'insufficient_storage'
  | 'internal';

const STATUS: Record<ErrorKind, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  precondition_required: 428,
  work_over_budget: 422,
  rate_limited: 429,
  engine_unavailable: 503,
  /** The engine answered, but never with something usable (a model answering garbage): not retried later. */
  engine_bad_answer: 502,
  insufficient_storage: 507,
  internal: 500,
};

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message: string, options: { headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.kind = kind;
    this.status = STATUS[kind];
    this.headers = options.headers ?? {};
  }
}

/** 400 with a message that names the offending field. */
export const invalidRequest = (message: string): DomainError => new DomainError('invalid_request', message);
/** 404 for unknown ids and for ids owned by another account alike. */
export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);
export const payloadTooLarge = (message: string): DomainError => new DomainError('payload_too_large', message);
export const engineUnavailable = (message: string): DomainError => new DomainError('engine_unavailable', message);

/**
 * 422: the request's own work (extraction, coding, note writing, macro detection) ran past its
 * time budget and was stopped. The same request would overrun again, so it is not a 503 to retry.
 */
export const workOverBudget = (what: string, budgetMs: number): DomainError =>
  new DomainError('work_over_budget', `${what} took longer than its budget of ${budgetMs / 1000} s (CLINDOC_WORK_BUDGET_MS) and was stopped: send a shorter text or a smaller schema or macro list`);

/** 503 with Retry-After: busy for a moment (every worker occupied, the database locked by another process). */
export const busyNow = (message: string, retryAfterSeconds = 1): DomainError =>
  new DomainError('engine_unavailable', message, { headers: { 'Retry-After': String(retryAfterSeconds) } });

/** SQLite's codes for a database another connection or process holds locked (`SQLITE_BUSY`, `SQLITE_LOCKED` and their extended forms). */
const BUSY_CODE = /^SQLITE_(?:BUSY|LOCKED)(?:_|$)/;

/** Whether a failure (or one of its causes) is a database locked by someone else: read from its `code`, like {@link isOutOfSpace}. */
export function isDatabaseBusy(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && BUSY_CODE.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** What a request answers while another process holds the database: nothing was done, try again shortly. */
export const databaseBusy = (): DomainError => busyNow('the database is locked by another process: nothing was changed; try again in a moment', 2);

/** What a write answers on a full disk: nothing was saved, and what was accepted before is kept. */
export const OUT_OF_SPACE_MESSAGE =
  'the disk is full: this was not saved. Free some disk space and try again; work accepted earlier is kept and goes on when space returns';

/** 507: the disk (or the database) is full. */
export const insufficientStorage = (message = OUT_OF_SPACE_MESSAGE): DomainError => new DomainError('insufficient_storage', message);

/** Error codes that mean "no room": the file system's (`ENOSPC`, quota, file-size limit) and SQLite's. */
const OUT_OF_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL']);

/**
 * Whether a failure (or one of its causes) says the disk or the database is full. Read from the
 * error's `code`, so the check stays free of any file-system or database import.
 */
export function isOutOfSpace(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof DomainError) return e.kind === 'insufficient_storage';
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && OUT_OF_SPACE_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
