import { lookup as systemLookup } from 'node:dns/promises';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { invalidRequest } from '../services/errors.js';
import { isLoopbackAddress, parseIp, parseWebhookAllow, refusedAddress } from '../services/webhooks/destination-policy.js';
import type { WebhookDestinations } from '../services/webhooks/webhook-service.js';

/** A webhook URL whose host was resolved once and found allowed: deliveries connect to `address`. */
export interface CheckedDestination {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver, or a test's). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const resolveWithSystem: Resolve = (host) => systemLookup(host, { all: true, verbatim: true });

/** The codes of a name that does not resolve (not a refusal: nothing can be reached through it). */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ESERVFAIL', 'ETIMEOUT', 'ECONNREFUSED']);

const HINT = 'set CLINDOC_WEBHOOK_ALLOW to allow it (e.g. loopback, or a CIDR range)';

/**
 * The webhook destination policy with its I/O: parses the URL, resolves the host once (an address
 * literal is not resolved; the URL parser has already written decimal, hex, octal and short IPv4
 * forms as dotted quads), and refuses the URL unless every address it resolves to is allowed
 * (destination-policy.ts). Plain http is allowed only to loopback addresses.
 */
export function createWebhookDestinations(options: { allow: readonly string[]; resolve?: Resolve }): WebhookDestinations & {
  /** Like `check`, but a host that does not resolve is a refusal too (a delivery needs an address). */
  resolveForDelivery(url: string): Promise<CheckedDestination>;
} {
  const allow = parseWebhookAllow(options.allow);
  const resolve = options.resolve ?? resolveWithSystem;

  const parse = (raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidRequest('webhookUrl: not a valid URL');
    }
    if (url.username || url.password) throw invalidRequest('webhookUrl: credentials in the URL are not allowed');
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRequest('webhookUrl: must be https, or http on a loopback address');
    return url;
  };

  const verdict = (url: URL, addresses: { address: string; family: number }[]): CheckedDestination => {
    const host = url.hostname;
    // Every address is checked, not just the first: a name with one public and one private address
    // would otherwise reach the private one whenever the resolver's order changes.
    for (const { address } of addresses) {
      const reason = refusedAddress(address, allow);
      if (reason) {
        const what = parseIp(host) ? `${host} is ${reason}` : `${host} resolves to ${reason} (${address})`;
        throw invalidRequest(`webhookUrl: ${what}; webhooks to such addresses are refused: ${HINT}`);
      }
    }
    const first = addresses[0]!;
    if (url.protocol === 'http:' && !addresses.every((a) => isLoopbackAddress(a.address))) {
      throw invalidRequest('webhookUrl: must be https, or http on a loopback address');
    }
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  };

  const lookup = async (url: URL): Promise<{ address: string; family: number }[] | undefined> => {
    const literal = parseIp(url.hostname);
    if (literal) return [{ address: url.hostname.replace(/^\[|\]$/g, ''), family: literal.family }];
    try {
      const found = await resolve(url.hostname);
      return found.length ? found : undefined;
    } catch (err) {
      if (UNRESOLVED.has((err as { code?: string }).code ?? '')) return undefined;
      throw err;
    }
  };

  return {
    async check(raw) {
      const url = parse(raw);
      const addresses = await lookup(url);
      // A name that does not resolve now reaches nothing now; every delivery checks it again.
      if (!addresses) {
        if (url.protocol === 'http:') throw invalidRequest('webhookUrl: must be https, or http on a loopback address');
        return;
      }
      verdict(url, addresses);
    },
    async resolveForDelivery(raw) {
      const url = parse(raw);
      const addresses = await lookup(url);
      if (!addresses) throw invalidRequest('webhookUrl: its host name does not resolve');
      return verdict(url, addresses);
    },
  };
}

export type WebhookDestinationPolicy = ReturnType<typeof createWebhookDestinations>;

/**
 * POSTs a delivery to a checked destination and resolves with the response status (the body is
 * never read). The connection goes to the checked address: the request's `lookup` hands it back
 * instead of asking the resolver again, so a name that changes its answer between the check and
 * the connection (DNS rebinding) cannot move the delivery; the Host header and the TLS server name
 * stay the URL's host, so certificates are verified against the name. Redirects are not followed;
 * no connection is pooled (a pooled socket might lead to an address checked for another delivery).
 */
export function postToDestination(destination: CheckedDestination, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  const { url, address, family } = destination;
  const pinned: LookupFunction = (_host, opts, callback) => {
    // With autoSelectFamily (Node's default) the socket asks for every address.
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const options: RequestOptions = {
    method: 'POST',
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    lookup: pinned,
    agent: false,
    signal: AbortSignal.timeout(timeoutMs),
  };
  return new Promise<number>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', reject);
    req.end(body);
  });
}
