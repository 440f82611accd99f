import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../services/errors.js';

export interface LocalGuardOptions {
  /** Port the server listens on (the app's own origin is http://127.0.0.1:PORT and localhost). */
  port: () => number;
  /** Host names accepted in `Host` besides loopback names (CLINDOC_ALLOWED_HOSTS). */
  extraHosts: string[];
  /** Origins allowed to call the API besides the app's own (CLINDOC_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Keeps web pages in the physician's browser out of the local API:
 * - `Host` must name the local address (defeats DNS rebinding: a hostile name that resolves to
 *   127.0.0.1 still carries its own name in Host);
 * - a request that carries an `Origin` must come from the app's own origin or the allow-list.
 */
export function localGuard(options: LocalGuardOptions) {
  const hostAllowed = (host: string | undefined): boolean => {
    if (!host) return false;
    const port = String(options.port());
    const lower = host.toLowerCase();
    const names = [...LOOPBACK_NAMES, ...options.extraHosts.map((h) => h.toLowerCase())];
    return names.some((name) => lower === `${name}:${port}` || (port === '80' && lower === name));
  };
  const originAllowed = (origin: string): boolean => {
    const port = options.port();
    const own = LOOPBACK_NAMES.map((name) => `http://${name}:${port}`);
    return own.includes(origin.toLowerCase()) || options.allowedOrigins.includes(origin);
  };
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!hostAllowed(req.get('host'))) {
      next(new DomainError('forbidden', 'Host header does not name this local service'));
      return;
    }
    const origin = req.get('origin');
    if (origin !== undefined && !originAllowed(origin)) {
      next(new DomainError('forbidden', 'requests from this origin are not allowed'));
      return;
    }
    next();
  };
}

export { LOOPBACK_NAMES };
