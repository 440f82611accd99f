/**
 * Operations endpoints for load balancers, service managers and Prometheus: `/healthz` (the
 * process answers), `/readyz` (it can do its work: database, job queue, engines; 503 while
 * draining) and `/metrics`. None needs an API key and none says anything about patients or
 * accounts: check names and pass/fail only, never an error's text.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../../services/errors.js';
import type { OpsMetrics } from '../middleware/metrics.js';

/** One readiness check (composition gives them: the SQLite check runs `SELECT 1`). */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency works; rejects (or outlasts the timeout) when not. */
  check(): Promise<void>;
}

export interface OpsRoutesOptions {
  checks: ReadinessCheck[];
  /** True once the process has begun to drain: `/readyz` answers 503 from then on. */
  draining: () => boolean;
  metrics: OpsMetrics;
  /** CLINDOC_METRICS_TOKEN: when set, `/metrics` needs `Authorization: Bearer <token>` from everyone. */
  metricsToken?: string;
  /** Without a token, `/metrics` also obeys the local guard's Host and Origin rule (the refusal reason, or null). */
  guard: (host: string | undefined, origin: string | undefined) => string | null;
  /** How long one readiness check may take; default 2000 ms. */
  checkTimeoutMs?: number;
}

export interface ReadinessReport {
  status: 'ready' | 'unavailable' | 'draining';
  checks: { name: string; ok: boolean; reason?: 'failed' | 'timed out' }[];
}

/** Runs every check at once, each under its own timeout. */
export async function readiness(checks: ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map(async ({ name, check }) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), timeoutMs)));
    try {
      const outcome = await Promise.race([check().then(() => 'ok' as const, () => 'failed' as const), timeout]);
      return outcome === 'ok' ? { name, ok: true } : { name, ok: false, reason: outcome };
    } finally {
      clearTimeout(timer);
    }
  }));
  return { status: results.every((r) => r.ok) ? 'ready' : 'unavailable', checks: results };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (what a dual-stack socket reports). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return a === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * Who may read `/metrics`. With a token: whoever presents it (compared in constant time). Without:
 * loopback clients only, judged by `req.ip`, which behind a trusted TLS proxy is the address the
 * proxy forwarded (so the proxy's own loopback connection does not open metrics to the world),
 * and only under the local guard's Host and Origin rule (a DNS-rebinding or foreign page cannot read them either).
 */
function metricsAccess(options: OpsRoutesOptions) {
  const expected = options.metricsToken ? digest(options.metricsToken) : undefined;
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
      if (presented && timingSafeEqual(digest(presented), expected)) return next();
      return next(new DomainError('unauthorized', 'metrics need the bearer token set in CLINDOC_METRICS_TOKEN', { headers: { 'WWW-Authenticate': 'Bearer realm="clindoc-metrics"' } }));
    }
    if (isLoopbackAddress(req.ip) && options.guard(req.get('host'), req.get('origin')) === null) return next();
    next(new DomainError('forbidden', 'metrics are served to this computer only unless CLINDOC_METRICS_TOKEN is set'));
  };
}

/** The paths `opsRouter` answers (the front door sends only these to it). */
export const OPS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export function opsRouter(options: OpsRoutesOptions): Router {
  const router = Router();
  const timeoutMs = options.checkTimeoutMs ?? 2000;
  // No database, no engines: a process that answers this is alive, even when it is not ready.
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', async (_req, res) => {
    // Draining answers at once, so a load balancer stops sending before the checks would fail.
    const report: ReadinessReport = options.draining() ? { status: 'draining', checks: [] } : await readiness(options.checks, timeoutMs);
    res.status(report.status === 'ready' ? 200 : 503).json(report);
  });
  router.get('/metrics', metricsAccess(options), async (_req, res) => {
    const text = await options.metrics.registry.metrics();
    res.type(options.metrics.registry.contentType).send(text);
  });
  return router;
}
