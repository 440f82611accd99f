import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * Gives every response an `X-Request-Id` and logs one structured line per request: id, method,
 * route template, status, duration and account. Never the body, the query string (it may hold
 * a streaming token) or any header value but the request id.
 */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const supplied = req.get('X-Request-Id');
    const id = supplied && /^[A-Za-z0-9._-]{1,100}$/.test(supplied) ? supplied : randomUUID();
    res.locals.requestId = id;
    res.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      // Probes and scrapes come every few seconds: logged only when they fail, unless at debug.
      const level = PROBES.has(req.path) && res.statusCode < 400 ? 'debug' : 'info';
      logger[level](
        {
          reqId: id,
          method: req.method,
          route: route ? `${req.baseUrl}${route}` : req.path.split('?')[0],
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          accountId: (res.locals.principal as { accountId?: string } | undefined)?.accountId,
        },
        'request',
      );
    });
    next();
  };
}
