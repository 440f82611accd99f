import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { OPS_PATHS } from '../routes/ops.js';

/**
 * Every response carries an `X-Request-Id` and is logged as one structured line: id, method,
 * route template, status, duration and account. Never the body, the query string (it may hold a
 * streaming token) or any header value but the request id. The front door (front-door.ts) calls
 * these two functions.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** What the front door keeps on the response for its `finish` listener. */
export interface RequestTiming {
  id: string;
  started: bigint;
}

/** The client's `X-Request-Id` when it is a plain token, else a new one. */
export function newRequestId(req: Request): string {
  const supplied = req.headers['x-request-id'];
  return typeof supplied === 'string' && REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** The path of a request URL, without its query string (express's `req.path` parses the whole URL for it). */
export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query < 0 ? raw : raw.slice(0, query);
}

/** Logs a finished response; `route` is its template, undefined when no route answered. */
export function logRequest(logger: Logger, req: Request, res: Response, route: string | undefined, durationMs: number): void {
  // Probes and scrapes come every few seconds: logged only when they fail, unless at debug.
  const level = res.statusCode < 400 && OPS_PATHS.has(route ?? req.path) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      reqId: res.locals.requestId as string,
      method: req.method,
      route: route ?? req.path,
      status: res.statusCode,
      durationMs,
      accountId: (res.locals.principal as { accountId?: string } | undefined)?.accountId,
    },
    'request',
  );
}
