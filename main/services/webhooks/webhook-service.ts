import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookStore, WebhookRecord, DeliveryRecord } from '../storage.js';
import { invalidRequest, notFound } from '../errors.js';

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
  create(accountId: string, input: { url: string; events?: string[] }): Promise<WebhookView>;
  list(accountId: string): Promise<WebhookView[]>;
  delete(accountId: string, id: string): Promise<void>;
  /** 400 unless `url` is registered as one of the account's webhooks (its destination was checked then). */
  requireRegistered(accountId: string, url: string): Promise<void>;
  /**
   * Queues deliveries of an event to the account's webhooks that subscribe to it, and to the
   * per-request URL (which must be one of the account's registered webhooks). Resolves once they
   * are stored; never waits for a delivery.
   */
  emit(event: { accountId: string; type: WebhookEvent; resourceId: string; requestUrl?: string }): Promise<void>;
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

export function createWebhookService(deps: {
  store: WebhookStore;
  destinations: WebhookDestinations;
  now?: () => number;
  wake?: () => void;
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
    async emit({ accountId, type, resourceId, requestUrl }) {
      const hooks = await deps.store.list(accountId);
      const targets = new Map<string, WebhookRecord>();
      for (const hook of hooks) if (hook.events.includes(type)) targets.set(hook.id, hook);
      if (requestUrl) {
        const match = hooks.find((h) => h.url === requestUrl);
        if (match) targets.set(match.id, match);
      }
      for (const hook of targets.values()) {
        await deps.store.insertDelivery({
          id: `msg_${randomUUID().replace(/-/g, '')}`, accountId, webhookId: hook.id, url: hook.url, secret: hook.secret, event: type,
          resourceId, status: 'pending', attempts: 0, nextAttemptAt: now(), createdAt: now(),
        });
      }
      if (targets.size) deps.wake?.();
    },
    deliveries: (accountId, resourceId) => deps.store.listDeliveries(accountId, resourceId),
  };
}
