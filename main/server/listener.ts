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

/** An HTTP server for `app`, or an HTTPS one with the given files (read once, at start). */
export function createListener(app: RequestListener, tls?: TlsFiles): Server {
  if (!tls) return createHttpServer(app);
  return createHttpsServer({ cert: readFileSync(tls.certPath), key: readFileSync(tls.keyPath), minVersion: 'TLSv1.2' }, app);
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
