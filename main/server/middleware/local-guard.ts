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
  const names = [...LOOPBACK_NAMES, ...options.extraHosts.map((h) => h.toLowerCase())];
  // The accepted Host and Origin values, rebuilt only when the port changes (it is known after listen).
  let forPort: number | undefined;
  let hosts = new Set<string>();
  let origins = new Set<string>();
  const accepted = (): { hosts: Set<string>; origins: Set<string> } => {
    const port = options.port();
    if (port !== forPort) {
      forPort = port;
      hosts = new Set(names.flatMap((name) => (port === 80 ? [`${name}:${port}`, name] : [`${name}:${port}`])));
      origins = new Set(LOOPBACK_NAMES.map((name) => `http://${name}:${port}`));
    }
    return { hosts, origins };
  };
  const hostAllowed = (host: string | undefined): boolean => Boolean(host) && accepted().hosts.has(host!.toLowerCase());
  const originAllowed = (origin: string): boolean => accepted().origins.has(origin.toLowerCase()) || options.allowedOrigins.includes(origin);
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
