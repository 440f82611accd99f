import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../services/errors.js';
import { createMemoryRateWindows, type RateWindows } from '../../services/rate-windows.js';

export interface RateLimitOptions {
  /** Requests allowed per window and key (CLINDOC_RATE_LIMIT, default 600). */
  limit: number;
  /** Window length in seconds (CLINDOC_RATE_WINDOW_SECONDS, default 60). */
  windowSeconds: number;
  /** The key a request is counted under: the account when authenticated, else the client IP. */
  keyOf: (req: Request, res: Response) => string;
  /**
   * Where windows are counted: this process's memory by default; the shared database when
   * several API instances answer one clinic (CLINDOC_DATABASE_URL).
   */
  windows?: RateWindows;
  now?: () => number;
}

/**
 * Fixed-window limiter. Sets X-RateLimit-Limit / -Remaining / -Reset (seconds until the window
 * resets) on every response and answers 429 with Retry-After when the window is spent. When the
 * counters cannot be reached (the database is down) the request fails with that error rather than
 * passing uncounted.
 */
export function rateLimit(options: RateLimitOptions) {
  const now = options.now ?? Date.now;
  const windows = options.windows ?? createMemoryRateWindows();
  const windowMs = options.windowSeconds * 1000;
  const limitHeader = String(options.limit);
  return (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const t = now();
    return windows.hit(options.keyOf(req, res), windowMs, t).then(({ count, resetAt }) => {
      // Another instance's clock may run ahead of this one's: the wait never exceeds one window.
      const reset = Math.min(options.windowSeconds, Math.max(1, Math.ceil((resetAt - t) / 1000)));
      res.setHeader('X-RateLimit-Limit', limitHeader);
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, options.limit - count)));
      res.setHeader('X-RateLimit-Reset', String(reset));
      if (count > options.limit) {
        next(new DomainError('rate_limited', 'rate limit exceeded; retry after the window resets', { headers: { 'Retry-After': String(reset) } }));
        return;
      }
      next();
    }, next);
  };
}
