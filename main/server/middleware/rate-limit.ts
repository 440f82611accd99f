import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../services/errors.js';

export interface RateLimitOptions {
  /** Requests allowed per window and key (CLINDOC_RATE_LIMIT, default 600). */
  limit: number;
  /** Window length in seconds (CLINDOC_RATE_WINDOW_SECONDS, default 60). */
  windowSeconds: number;
  /** The key a request is counted under: the account when authenticated, else the client IP. */
  keyOf: (req: Request, res: Response) => string;
  now?: () => number;
}

/**
 * Fixed-window limiter kept in memory (one process serves one desktop). Sets
 * X-RateLimit-Limit / -Remaining / -Reset (seconds until the window resets) on every response
 * and answers 429 with Retry-After when the window is spent.
 */
export function rateLimit(options: RateLimitOptions) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  const windowMs = options.windowSeconds * 1000;
  const limitHeader = String(options.limit);
  let lastSweep = now();
  return (req: Request, res: Response, next: NextFunction): void => {
    const t = now();
    if (t - lastSweep > windowMs) {
      for (const [key, w] of windows) if (t - w.start >= windowMs) windows.delete(key);
      lastSweep = t;
    }
    const key = options.keyOf(req, res);
    let w = windows.get(key);
    if (!w || t - w.start >= windowMs) {
      w = { start: t, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    const reset = Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
    res.setHeader('X-RateLimit-Limit', limitHeader);
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, options.limit - w.count)));
    res.setHeader('X-RateLimit-Reset', String(reset));
    if (w.count > options.limit) {
      next(new DomainError('rate_limited', 'rate limit exceeded; retry after the window resets', { headers: { 'Retry-After': String(reset) } }));
      return;
    }
    next();
  };
}
