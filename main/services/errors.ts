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
  | 'engine_unavailable'
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
  rate_limited: 429,
  engine_unavailable: 503,
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
