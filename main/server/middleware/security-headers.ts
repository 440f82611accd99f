import type { Request, Response } from 'express';

const FIXED: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Cache-Control', 'no-store'],
  [
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self' ws://127.0.0.1:* ws://localhost:* http://127.0.0.1:* http://localhost:* https: wss:; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  ],
];

/**
 * Security headers on every response (set by the front door). The CSP allows only this origin's
 * own scripts: the interface and the docs page load nothing from elsewhere. The interface may
 * call a clinic server the physician chose in Settings (connect-src: any HTTPS/WSS origin, and
 * loopback for tunnels), which this server cannot know in advance; scripts stay this origin's only.
 */
export function applySecurityHeaders(res: Response): void {
  // setHeader, not res.set: the values are constant strings, and this runs on every request.
  for (const [name, value] of FIXED) res.setHeader(name, value);
}

/**
 * CORS only for configured origins (CLINDOC_CORS_ORIGINS; off by default): the headers on every
 * response to such an origin, and the preflight answered here. True when the preflight was answered.
 */
export function corsPreflight(req: Request, res: Response, corsOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (!origin || !corsOrigins.includes(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', 'ETag, X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset');
  if (req.method !== 'OPTIONS') return false;
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-API-KEY, X-ACCOUNT-ID, X-API-TOKEN, Idempotency-Key, X-Request-Id, If-Match');
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
  return true;
}
