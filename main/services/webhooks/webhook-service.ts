import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookStore, WebhookRecord, DeliveryRecord, OutboxEvent } from '../storage.js';
import { invalidRequest, notFound } from '../errors.js';
import type { WebhookBody } from '../../../shared/api/schemas.js';

export const WEBHOOK_EVENTS = [
  'audio_transcription.succeeded',
  'audio_transcription.failed',
  'note_generation.succeeded',
  'note_generation.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  secret?: string;
}

export interface WebhookService {
  /** `input` as `POST /v1/webhooks` validated it (the API schema's type). */
  create(accountId: string, input: WebhookBody): Promise<WebhookView>;
  list(accountId: string): Promise<WebhookView[]>;
  delete(accountId: string, id: string): Promise<void>;
  /** 400 unless `url` is registered as one of the account's webhooks (its destination was checked then). */
  requireRegistered(accountId: string, url: string): Promise<void>;
  /**
   * Turns events waiting in the outbox (written with the change that caused them) into deliveries
   * to the account's webhooks that subscribe to each event, and to its per-request URL when that is
   * one of the account's registered webhooks. Resolves with the number of events taken (at most `limit`).
   */
  drainOutbox(limit?: number): Promise<number>;
  deliveries(accountId: string, resourceId?: string): Promise<DeliveryRecord[]>;
}

/**
 * The destination policy (destination-policy.ts, with its resolver in main/jobs): resolves the
 * URL's host once and rejects with 400 naming why when Clindoc will not deliver there.
 */
export interface WebhookDestinations {
  check(url: string): Promise<void>;
}

const view = (w: WebhookRecord, withSecret = false): WebhookView => ({
  id: w.id, url: w.url, events: w.events, created_at: new Date(w.createdAt).toISOString(), ...(withSecret ? { secret: w.secret } : {}),
});

/** The deliveries of one event: each of the account's webhooks that subscribes to it, and the per-request URL's. */
function deliveriesOf(e: OutboxEvent, hooks: WebhookRecord[]): DeliveryRecord[] {
  const targets = new Map<string, WebhookRecord>();
  for (const hook of hooks) if (hook.events.includes(e.event)) targets.set(hook.id, hook);
  if (e.requestUrl) {
    const match = hooks.find((h) => h.url === e.requestUrl);
    if (match) targets.set(match.id, match);
  }
  return [...targets.values()].map((hook) => ({
    id: `msg_${randomUUID().replace(/-/g, '')}`, accountId: e.accountId, webhookId: hook.id, url: hook.url, secret: hook.secret, event: e.event,
    resourceId: e.resourceId, status: 'pending', attempts: 0, nextAttemptAt: e.createdAt, createdAt: e.createdAt,
  }));
}

export function createWebhookService(deps: {
  store: WebhookStore;
  destinations: WebhookDestinations;
  now?: () => number;
}): WebhookService {
  const now = deps.now ?? Date.now;
  return {
    async requireRegistered(accountId, url) {
      if (!(await deps.store.list(accountId)).some((h) => h.url === url)) {
        throw invalidRequest('webhookUrl: register it first with POST /v1/webhooks (its secret signs the deliveries)');
      }
    },
    async create(accountId, input) {
      // Checked again at every delivery (a name may resolve elsewhere later), and delivered to the address checked then.
      await deps.destinations.check(input.url);
      const record: WebhookRecord = {
        id: `wh_${randomUUID().replace(/-/g, '')}`,
        accountId,
        url: input.url,
        events: input.events ?? [...WEBHOOK_EVENTS],
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        createdAt: now(),
      };
      await deps.store.insert(record);
      return view(record, true);
    },
    list: async (accountId) => (await deps.store.list(accountId)).map((w) => view(w)),
    async delete(accountId, id) {
      if (!(await deps.store.delete(accountId, id))) throw notFound('webhook');
    },
    async drainOutbox(limit = 100) {
      const events = await deps.store.takeOutbox(limit);
      const hooksOf = new Map<string, Promise<WebhookRecord[]>>();
      for (const e of events) {
        if (!hooksOf.has(e.accountId)) hooksOf.set(e.accountId, deps.store.list(e.accountId));
        await deps.store.fanOut(e.id, deliveriesOf(e, await hooksOf.get(e.accountId)!));
      }
      return events.length;
    },
    deliveries: (accountId, resourceId) => deps.store.listDeliveries(accountId, resourceId),
  };
}
