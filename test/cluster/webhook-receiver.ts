/**
 * A webhook receiver on loopback that keeps every delivery it is sent, checks each signature the
 * way a client would (Standard Webhooks: HMAC-SHA256 over id, timestamp and body, fresh timestamp)
 * and counts deliveries per event and resource, so a test can tell a lost event from a duplicate.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface Delivery {
  /** `webhook-id`: one per event, the same on every retry of it. */
  webhookId: string;
  type: string;
  resourceId: string;
  status: string | undefined;
  /** Whether the signature held under the secret known when the delivery arrived. */
  verified: boolean;
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** The secret the registration answered with; deliveries are checked against it. */
  setSecret(secret: string): void;
  /** Deliveries per `type resourceId`. */
  counts(): Map<string, number>;
  close(): Promise<void>;
}

function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  if (!Number.isFinite(Number(timestamp)) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let secret = '';
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      let event: { type?: string; data?: { id?: string; status?: string } } = {};
      try {
        event = JSON.parse(body) as typeof event;
      } catch {
        // Kept with an empty type, so the test sees a malformed delivery as an unexpected one.
      }
      deliveries.push({
        webhookId: String(req.headers['webhook-id']), type: event.type ?? '', resourceId: event.data?.id ?? '',
        status: event.data?.status, verified: secret !== '' && verify(secret, req.headers, body), receivedAt: Date.now(),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    setSecret: (value) => void (secret = value),
    counts() {
      const counts = new Map<string, number>();
      for (const d of deliveries) counts.set(`${d.type} ${d.resourceId}`, (counts.get(`${d.type} ${d.resourceId}`) ?? 0) + 1);
      return counts;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
