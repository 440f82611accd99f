import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy` setting: whether the address `hops` steps from this server is a trusted proxy. */
export type ProxyTrust = (address: string, hops: number) => boolean;

/**
 * The client's address as express computes `req.ip`, for requests that never pass through express
 * (the streaming socket's upgrade): walk from this server's peer back along `X-Forwarded-For` while
 * each hop is a trusted proxy. Without trusted proxies it is the peer's address, so a client cannot
 * choose its own by sending the header.
 */
export function clientAddress(trust: ProxyTrust): (req: IncomingMessage) => string {
  return (req) => {
    const peer = req.socket.remoteAddress ?? 'unknown';
    const header = req.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((s) => s.trim()).filter(Boolean).reverse();
    const hops = [peer, ...forwarded];
    let i = 0;
    while (i < hops.length - 1 && trust(hops[i]!, i)) i++;
    return hops[i]!;
  };
}
