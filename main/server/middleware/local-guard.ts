export interface LocalGuardOptions {
  /** Port the server listens on (the app's own origin is http://127.0.0.1:PORT and localhost). */
  port: () => number;
  /** Host names accepted in `Host` besides loopback names (CLINDOC_ALLOWED_HOSTS). */
  extraHosts: string[];
  /** Origins allowed to call the API besides the app's own (CLINDOC_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  /**
   * The clinic's name is served over HTTPS (CLINDOC_TLS_CERT, or CLINDOC_BEHIND_TLS_PROXY): each
   * allowed host is also accepted without a port (the proxy's `Host: clinic.example`), and
   * `https://<allowed host>` and `https://<allowed host>:PORT` are the app's own origins.
   */
  secure?: boolean;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The Host and Origin rules of the REST API and the streaming socket, as one pure decision. They
 * keep web pages in the physician's browser out of the local API:
 * - `Host` must name the local address (defeats DNS rebinding: a hostile name that resolves to
 *   127.0.0.1 still carries its own name in Host);
 * - a request that carries an `Origin` must come from the app's own origin or the allow-list.
 */
export interface HostOriginPolicy {
  /** The refusal reason, or null when the request may go on. */
  refusal(host: string | undefined, origin: string | undefined): string | null;
  hostAllowed(host: string | undefined): boolean;
  /** Whether `origin` is the app's own (its page), not merely an allow-listed one. */
  ownOrigin(origin: string | undefined): boolean;
}

export function hostOriginPolicy(options: LocalGuardOptions): HostOriginPolicy {
  const extra = options.extraHosts.map((h) => h.toLowerCase());
  const names = [...LOOPBACK_NAMES, ...extra];
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
      if (options.secure) {
        // Behind a proxy the browser's port is the proxy's (443), not the one bound here.
        for (const name of extra) {
          hosts.add(name);
          origins.add(`https://${name}`).add(`https://${name}:${port}`);
        }
        for (const name of LOOPBACK_NAMES) origins.add(`https://${name}:${port}`);
      }
    }
    return { hosts, origins };
  };
  const hostAllowed = (host: string | undefined): boolean => Boolean(host) && accepted().hosts.has(host!.toLowerCase());
  const originAllowed = (origin: string): boolean => accepted().origins.has(origin.toLowerCase()) || options.allowedOrigins.includes(origin);
  return {
    hostAllowed,
    ownOrigin: (origin) => origin !== undefined && accepted().origins.has(origin.toLowerCase()),
    refusal(host, origin) {
      if (!hostAllowed(host)) return 'Host header does not name this local service';
      if (origin !== undefined && !originAllowed(origin)) return 'requests from this origin are not allowed';
      return null;
    },
  };
}

export { LOOPBACK_NAMES };
