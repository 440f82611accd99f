import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ResponseSchemaError } from '../response-check.js';
import { databaseBusy, DomainError, insufficientStorage, isDatabaseBusy, isOutOfSpace } from '../../services/errors.js';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** Maps body-parser failures to domain errors without echoing the body. */
function fromParser(err: HttpishError): DomainError | undefined {
  switch (err.type) {
    case 'entity.too.large':
      return new DomainError('payload_too_large', 'request body exceeds the size limit');
    case 'entity.parse.failed':
      return new DomainError('invalid_request', 'request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', 'unsupported request body encoding');
    case 'request.aborted':
      return new DomainError('invalid_request', 'request was aborted');
    default:
      if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) return new DomainError('invalid_request', 'malformed request');
      return undefined;
  }
}

/**
 * The one place failures become `{error, message}`. Domain errors keep their message; anything
 * else is a 500 whose message says nothing about internals or patient data, logged by kind only.
 */
export function errorHandler(logger: Logger) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    let domain = err instanceof DomainError ? err : undefined;
    if (!domain && isOutOfSpace(err)) {
      // A full disk (ENOSPC, SQLITE_FULL) is the operator's to fix, not a bug: 507 and one warning.
      logger.warn({ reqId: res.locals.requestId, code: (err as { code?: string }).code }, 'write refused: the disk is full');
      domain = insufficientStorage();
    }
    if (!domain && isDatabaseBusy(err)) {
      // Another process holds the database (SQLITE_BUSY after the short busy timeout): nothing was done; 503 and try again.
      logger.warn({ reqId: res.locals.requestId, code: (err as { code?: string }).code }, 'request refused: the database is locked by another process');
      domain = databaseBusy();
    }
    domain ??= fromParser((err ?? {}) as HttpishError);
    if (!domain) {
      // A ResponseSchemaError's message names the route and the schema path, never a value: logged so the broken promise is found.
      const problem = err instanceof ResponseSchemaError ? { problem: err.message } : {};
      logger.error({ reqId: res.locals.requestId, errName: (err as Error)?.name, ...problem, frames: (err as Error)?.stack?.split('\n').slice(1, 5).map((l) => l.trim()).join(' | ') }, 'unhandled error');
      domain = new DomainError('internal', 'internal error');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [name, value] of Object.entries(domain.headers)) res.set(name, value);
    res.status(domain.status).json({ error: domain.status, message: domain.message });
  };
}
