import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Db } from '../../main/store/database.js';
import { openKeyRing } from '../../main/store/crypto/key-ring.js';
import { createFieldCipher } from '../../main/store/crypto/field-cipher.js';
import { createWebhookStore } from '../../main/store/webhook-store.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../main/jobs/webhook-dispatcher.js';
import { createWebhookDestinations } from '../../main/jobs/webhook-destination.js';
import type { DeliveryRecord, WebhookStore } from '../../main/services/storage.js';
import { waitFor } from '../support/server.js';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The real SQLite store; `recoverInterrupted` answers after `recoverMs`, as a slow networked database might. */
function slowRecovery(store: WebhookStore, recoverMs: number): WebhookStore {
  return {
    ...store,
    recoverInterrupted: async () => {
      await later(recoverMs);
      return store.recoverInterrupted();
    },
  };
}

describe('webhook dispatcher on the real SQLite store', () => {
  let dir: string;
  let db: Db;
  let receiver: Server;
  let dispatcher: WebhookDispatcher | undefined;
  afterEach(async () => {
    await dispatcher?.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A loopback receiver that answers 200 after `holdMs` and counts deliveries by webhook-id. */
  const listen = async (holdMs: number): Promise<{ url: string; received: Map<string, number> }> => {
    const received = new Map<string, number>();
    receiver = createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      req.resume();
      setTimeout(() => res.writeHead(200).end(), holdMs);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const { port } = receiver.address() as { port: number };
    return { url: `http://127.0.0.1:${port}/hook`, received };
  };

  const delivery = (id: string, url: string, event = 'note_generation.succeeded'): DeliveryRecord => ({
    id, accountId: 'acct', webhookId: null, url, secret: `whsec_${randomBytes(24).toString('base64')}`, event,
    resourceId: `note-${id}`, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: Date.now(),
  });

  it('puts back deliveries a killed process left sending before it claims any, so none is sent twice', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clindoc-hooks-'));
    db = openDatabase(join(dir, 'clindoc.db'));
    const store = createWebhookStore(db, createFieldCipher(openKeyRing(join(dir, 'keyring.json'), randomBytes(32))));
    // A sending delivery is still in flight when a slow recovery lands.
    const { url, received } = await listen(150);
    await store.insertDelivery(delivery('left-sending', url));
    expect(await store.claimDue(Date.now(), 10)).toHaveLength(1); // claimed by a process that then died
    await store.insertDelivery(delivery('fresh', url));

    dispatcher = createWebhookDispatcher({
      // The receiver listens on loopback, as a desktop integration would (CLINDOC_WEBHOOK_ALLOW=loopback).
      destinations: createWebhookDestinations({ allow: ['loopback'] }),
      store: slowRecovery(store, 60), logger: pino({ level: 'silent' }), pollMs: 10,
      subjects: { note_generation: async () => ({ status: 'STATUS_DONE' }) },
    });
    const starting = dispatcher.start();
    dispatcher.wake(); // an event arrives while recovery is still waiting on the database
    await starting;
    // Both delivered; stop then waits for any send still in flight (a second one would be among them).
    await waitFor(async () => ((await store.listDeliveries('acct')).every((d) => d.status === 'delivered') ? true : undefined), undefined, 10);
    await dispatcher.stop();
    expect(Object.fromEntries(received)).toEqual({ 'left-sending': 1, fresh: 1 });
    expect((await store.listDeliveries('acct')).map((d) => d.attempts)).toEqual([1, 1]);
  });

  it('re-reads each event through the service that owns its subject, and delivers no event nobody answers for', async () => {
    dir = mkdtempSync(join(tmpdir(), 'clindoc-hooks-'));
    db = openDatabase(join(dir, 'clindoc.db'));
    const store = createWebhookStore(db, createFieldCipher(openKeyRing(join(dir, 'keyring.json'), randomBytes(32))));
    const bodies = new Map<string, { type: string; data: { id: string; status: string } }>();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.set(String(req.headers['webhook-id']), JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    await store.insertDelivery(delivery('note', url, 'note_generation.succeeded'));
    await store.insertDelivery(delivery('recording', url, 'audio_transcription.failed'));
    await store.insertDelivery(delivery('stranger', url, 'visit_signed.succeeded'));
    await store.insertDelivery(delivery('prototype', url, 'toString.succeeded'));
    dispatcher = createWebhookDispatcher({
      destinations: createWebhookDestinations({ allow: ['loopback'] }), store, logger: pino({ level: 'silent' }), pollMs: 10,
      subjects: {
        note_generation: async (_accountId, id) => ({ status: `note ${id}` }),
        audio_transcription: async (_accountId, id) => ({ status: `transcription ${id}` }),
      },
    });
    await dispatcher.start();
    await waitFor(async () => ((await store.listDeliveries('acct')).every((d) => ['delivered', 'failed', 'cancelled'].includes(d.status)) ? true : undefined), undefined, 10);
    expect(Object.fromEntries((await store.listDeliveries('acct')).map((d) => [d.id, d.status]))).toEqual({ note: 'delivered', recording: 'delivered', stranger: 'cancelled', prototype: 'cancelled' });
    expect(bodies.get('note')).toMatchObject({ type: 'note_generation.succeeded', data: { id: 'note-note', status: 'note note-note' } });
    expect(bodies.get('recording')).toMatchObject({ type: 'audio_transcription.failed', data: { id: 'note-recording', status: 'transcription note-recording' } });
    expect(bodies.has('stranger')).toBe(false);
  });
});
