import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * Gives every response an `X-Request-Id` and logs one structured line per request: id, method,
 * route template, status, duration and account. Never the body, the query string (it may hold
 * a streaming token) or any header value but the request id.
 */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** What the middleware keeps on the response for its `finish` listener. */
interface Timing {
  id: string;
  started: bigint;
}

export function requestLog(logger: Logger) {
  // One listener shared by every response (no closure per request): it reads what it needs from `this`.
  function logFinished(this: Response): void {
    const { id, started } = this.locals.requestLog as Timing;
    const req = this.req;
    const route = (req.route as { path?: string } | undefined)?.path;
    // Probes and scrapes come every few seconds: logged only when they fail, unless at debug.
    const level = this.statusCode < 400 && PROBES.has(req.path) ? 'debug' : 'info';
    logger[level](
      {
        reqId: id,
        method: req.method,
        route: route ? `${req.baseUrl}${route}` : req.path,
        status: this.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        accountId: (this.locals.principal as { accountId?: string } | undefined)?.accountId,
      },
      'request',
    );
  }
  return (req: Request, res: Response, next: NextFunction): void => {
    const supplied = req.headers['x-request-id'];
    const id = typeof supplied === 'string' && REQUEST_ID.test(supplied) ? supplied : randomUUID();
    res.locals.requestId = id;
    res.locals.requestLog = { id, started: process.hrtime.bigint() } satisfies Timing;
    res.setHeader('X-Request-Id', id);
    res.on('finish', logFinished);
    next();
  };
}
