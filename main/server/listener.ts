/**
 * The listening side of the API: plain HTTP, or HTTPS (and so WSS for the streaming socket) when
 * certificate files are configured, and the graceful close used on shutdown.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

/** PEM files of the certificate (chain first) and its key (CLINDOC_TLS_CERT, CLINDOC_TLS_KEY). */
export interface TlsFiles {
  certPath: string;
  keyPath: string;
}

/** How long a client may take, and how many may be connected at once. */
export interface ListenerLimits {
  /** Longest time to receive one request, head and body (CLINDOC_REQUEST_TIMEOUT_SECONDS); then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Longest time to receive a request's head; at most `requestTimeoutMs`. */
  headersTimeoutMs: number;
  /** Connections beyond this are closed as they arrive (CLINDOC_MAX_CONNECTIONS). */
  maxConnections: number;
}

/**
 * An HTTP server for `app`, or an HTTPS one with the given files (read once, at start), with its
 * limits. A client that sends a byte every few seconds never trips an idle timeout, so the whole
 * request has a deadline (issue 29: a body dribbled at 1 byte / 5 s was never cut off). Node checks
 * deadlines every `connectionsCheckingInterval` (30 s by default): a quarter of the deadline here,
 * so a request is cut within 25% of it. The deadline ends with a WebSocket upgrade.
 */
export function createListener(app: RequestListener, tls: TlsFiles | undefined, limits: ListenerLimits): Server {
  const options = {
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(limits.requestTimeoutMs / 4))),
  };
  const server = tls
    ? createHttpsServer({ ...options, cert: readFileSync(tls.certPath), key: readFileSync(tls.keyPath), minVersion: 'TLSv1.2' }, app)
    : createHttpServer(options, app);
  server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * Stops accepting connections now; `finish` then closes idle keep-alive connections, lets requests
 * in flight finish for up to `graceMs`, and cuts what is left. `graceMs` 0 cuts at once (tests,
 * the desktop app's quit).
 */
export function stopAccepting(server: Server): { finish(graceMs: number): Promise<void> } {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    async finish(graceMs) {
      server.closeIdleConnections();
      if (graceMs > 0) {
        // Connections that finish their request become idle; close them as they do.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearInterval(sweep);
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
