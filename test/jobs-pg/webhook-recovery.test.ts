/**
 * Webhook deliveries on a shared PostgreSQL database when the instance sending one dies: another
 * instance that keeps running takes the delivery back and sends it, without waiting for a restart,
 * and never takes a delivery that a live instance is still sending.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openPostgresStores, type PostgresStores } from '../../main/store/pg/index.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../main/jobs/webhook-dispatcher.js';
import { createWebhookDestinations } from '../../main/jobs/webhook-destination.js';
import type { DeliveryRecord, WebhookStore } from '../../main/services/storage.js';
import { openProtection } from '../store-contract/backend.js';
import { openCluster, pgUnavailable, type TestCluster } from '../support/pg-cluster.js';
import { waitFor } from '../support/wait.js';

describe.skipIf(pgUnavailable !== null)('webhook deliveries of an instance that dies', () => {
  let cluster: TestCluster;
  let receiver: Server;
  let dispatcher: WebhookDispatcher | undefined;
  const protection = openProtection();
  const opened: PostgresStores[] = [];

  beforeAll(async () => {
    cluster = await openCluster();
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await cluster?.stop();
    protection.remove();
  });

  const open = async (url: string): Promise<PostgresStores> => {
    const stores = await openPostgresStores({ url, cipher: protection.cipher, blobs: protection.blobs, poolSize: 3 });
    opened.push(stores);
    return stores;
  };

  const delivery = (id: string, url: string): DeliveryRecord => ({
    id, accountId: 'acct', webhookId: null, url, secret: `whsec_${randomBytes(24).toString('base64')}`, event: 'note_generation.succeeded',
    resourceId: `note-${id}`, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: Date.now(),
  });

  it('is sent once by a running instance after the sender dies, and left alone while the sender lives', async () => {
    const received: Array<{ id: string; at: number }> = [];
    receiver = createServer((req, res) => {
      received.push({ id: String(req.headers['webhook-id']), at: Date.now() });
      req.resume();
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

    const url = await cluster.createDatabase();
    const [sender, survivor] = [await open(url), await open(url)];
    await sender.webhooks.insertDelivery(delivery('mid-send', hookUrl));
    // The sender claims it (status delivering) and is then cut off before it sends.
    expect((await sender.webhooks.claimDue(Date.now(), 10)).map((d) => d.id)).toEqual(['mid-send']);

    // The survivor runs a dispatcher that looks for gone instances' deliveries every 50 ms.
    let recoveries = 0;
    const counted: WebhookStore = {
      ...survivor.webhooks,
      recoverInterrupted: async () => {
        recoveries += 1;
        return survivor.webhooks.recoverInterrupted();
      },
    };
    dispatcher = createWebhookDispatcher({
      // The receiver listens on loopback, as a desktop integration would (CLINDOC_WEBHOOK_ALLOW=loopback).
      destinations: createWebhookDestinations({ allow: ['loopback'] }),
      store: counted, logger: pino({ level: 'silent' }), pollMs: 20, recoverEveryMs: 50, recoverClaimedForMs: 0,
      subjects: { note_generation: async () => ({ status: 'STATUS_DONE' }) },
    });
    await dispatcher.start();
    // A fresh delivery goes out, and several recovery passes run, while the sender still lives.
    await survivor.webhooks.insertDelivery(delivery('fresh', hookUrl));
    await waitFor(() => (received.some((r) => r.id === 'fresh') && recoveries >= 4 ? true : undefined), undefined, 10);
    expect(received.map((r) => r.id)).toEqual(['fresh']);

    // The sender dies: its lease ends with its connections, which may be before close() resolves, so
    // "after the sender dies" is measured from when it began to close.
    const diedAt = Date.now();
    await sender.close();
    await waitFor(async () => ((await survivor.webhooks.listDeliveries('acct')).every((d) => d.status === 'delivered') ? true : undefined), undefined, 20);
    await dispatcher.stop();
    expect(received.map((r) => r.id).sort()).toEqual(['fresh', 'mid-send']);
    expect(received.find((r) => r.id === 'mid-send')!.at).toBeGreaterThanOrEqual(diedAt);
  });

  it('leaves a gone instance\'s delivery claimed only moments ago: its lease may merely have blinked mid-attempt', async () => {
    const url = await cluster.createDatabase();
    const [sender, survivor] = [await open(url), await open(url)];
    await sender.webhooks.insertDelivery(delivery('blinked', 'http://127.0.0.1:9/hook'));
    expect((await sender.webhooks.claimDue(Date.now(), 10)).map((d) => d.id)).toEqual(['blinked']);
    await sender.close(); // the lease is gone, as in a failover
    // Claimed under a minute ago: a recovery that asks for deliveries claimed a minute back takes none.
    expect(await survivor.webhooks.recoverInterrupted({ claimedBefore: Date.now() - 60_000 })).toBe(0);
    expect(await survivor.webhooks.recoverInterrupted({ claimedBefore: Date.now() + 1 })).toBe(1);
    expect((await survivor.webhooks.listDeliveries('acct')).map((d) => d.status)).toEqual(['pending']);
  });
});
