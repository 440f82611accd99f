import { ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AuditService } from '../../services/audit/audit-service.js';
import { DomainError } from '../../services/errors.js';
import type { DrainState } from './drain.js';
import type { OpsMetrics } from './metrics.js';
import { newRequestId, logRequest, pathOf, type RequestTiming } from './request-log.js';
import { auditResponse } from './audit.js';
import { applySecurityHeaders, corsPreflight } from './security-headers.js';

export interface FrontDoorOptions {
  logger: Logger;
  audit: AuditService;
  metrics: OpsMetrics;
  drain: DrainState;
  corsOrigins: string[];
  /** Paths answered before the Host/Origin rule (health probes and metrics scrapes) and who answers them. */
  ops: { paths: ReadonlySet<string>; handle: RequestHandler };
  /** The Host and Origin rule (local-guard.ts); absent on a worker, which serves only the ops paths. */
  refusal?: (host: string | undefined, origin: string | undefined) => string | null;
}

/**
 * What every request passes through, as one middleware with one `finish` listener: request id,
 * timing, security headers, CORS preflight, drain, the ops endpoints, then the Host/Origin rule.
 * When the response finishes the same listener counts it in the metrics, logs one line and writes
 * the audit entry. One layer instead of seven is most of what the API's own per-request cost
 * was beside a plain express route (issue 19).
 */
export function frontDoor(options: FrontDoorOptions): RequestHandler {
  const { logger, audit, metrics, drain, corsOrigins, ops, refusal } = options;
  const writeHead = ServerResponse.prototype.writeHead;
  // Decided when the head is written, so a request in flight when draining began is answered
  // with `Connection: close` too. One function for all responses, not a closure per request.
  function drainAwareWriteHead(this: ServerResponse, ...args: unknown[]): ServerResponse {
    if (drain.draining()) this.setHeader('Connection', 'close');
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  }
  // A listener that throws takes the process down (an uncaught exception from an event), so each
  // step is kept apart: one that fails is logged by name and the others still run (issue 29: the
  // audit step's read of a destroyed socket's address once ended the process after a 507).
  function finished(this: Response): void {
    let route: string | undefined;
    let seconds = 0;
    const req = this.req;
    guarded(logger, 'metrics', () => {
      seconds = Number(process.hrtime.bigint() - (this.locals.timing as RequestTiming).started) / 1e9;
      route = routeTemplate(req, this);
      metrics.observeRequest(req.method, route ?? 'unmatched', this.statusCode, seconds);
    });
    guarded(logger, 'request log', () => logRequest(logger, req, this, route, seconds * 1000));
    guarded(logger, 'audit', () => auditResponse(audit, this));
  }
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = newRequestId(req);
    res.locals.requestId = id;
    res.locals.timing = { id, started: process.hrtime.bigint() } satisfies RequestTiming;
    // Read now, while the socket is surely there: by `finish` a failed upload may have destroyed it.
    res.locals.clientAddress = addressOf(req);
    res.setHeader('X-Request-Id', id);
    res.writeHead = drainAwareWriteHead as Response['writeHead'];
    res.on('finish', finished);
    applySecurityHeaders(res);
    if (corsOrigins.length > 0 && corsPreflight(req, res, corsOrigins)) return;
    if (ops.paths.has(pathOf(req.url))) {
      ops.handle(req, res, next);
      return;
    }
    const refused = refusal?.(req.headers.host, req.headers.origin);
    next(refused ? new DomainError('forbidden', refused) : undefined);
  };
}

/** The client's address (`req.ip`, under the app's `trust proxy` rule), or 'unknown' when the socket is gone. */
function addressOf(req: Request): string {
  try {
    return req.ip ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The address the front door read when the request started (see `addressOf`). */
export function requestAddress(res: Response): string {
  return (res.locals.clientAddress as string | undefined) ?? 'unknown';
}

/** Runs one step of the `finish` listener; a failure is logged by step and error name, never thrown. */
function guarded(logger: Logger, step: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    try {
      logger.error({ step, errName: (err as Error)?.name }, 'a finished response could not be recorded');
    } catch {
      // the logger itself failed (its disk is full): nothing more can be done here
    }
  }
}

/**
 * The route a response answered, as its template (`/v1/notes/:noteId`): the API registry leaves
 * it in `res.locals.route`; express routes (ops, docs) in `req.route`. Undefined when no route
 * answered (unknown paths, refusals before routing, static files): raw paths would carry ids.
 */
export function routeTemplate(req: Request, res: Response): string | undefined {
  const registered = (res.locals.route as { path?: string } | undefined)?.path;
  if (registered !== undefined) return registered;
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : undefined;
}
