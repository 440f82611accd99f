/**
 * Part of the one composition: webhooks. One destination policy (CLINDOC_WEBHOOK_ALLOW) for
 * registration and for every delivery attempt; the service that registers them and turns outbox
 * events into deliveries; the dispatcher that delivers, re-reading before each attempt the state
 * of what an event is about through the subjects the services expose (one per event prefix).
 */
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { WebhookStore } from './services/storage.js';
import type { ResourceState, WebhookSubject } from './services/background-work.js';
import { createWebhookService, type WebhookService } from './services/webhooks/webhook-service.js';
import { createWebhookDestinations, type Resolve } from './jobs/webhook-destination.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './jobs/webhook-dispatcher.js';

/**
 * On PostgreSQL, how often a running instance takes back webhook deliveries that a gone instance
 * left sending (its lease ended): a killed worker's deliveries go out within this, not at the next restart.
 */
const WEBHOOK_RECOVERY_MS = 30_000;

export interface ComposedWebhooks {
  service: WebhookService;
  dispatcher: WebhookDispatcher;
}

export interface WebhookOptions {
  /** Retry delays (tests use short ones). */
  retryDelaysMs?: number[];
  /** Resolver of host names (tests name hosts that resolve to chosen addresses); default the system's. */
  resolve?: Resolve;
  /** On a database other instances share, one of them may die mid-send while this one runs on. */
  shared: boolean;
}

export function composeWebhooks(config: ClindocConfig, logger: Logger, store: WebhookStore, subjects: WebhookSubject[], options: WebhookOptions): ComposedWebhooks {
  const destinations = createWebhookDestinations({ allow: config.webhookAllow, ...(options.resolve ? { resolve: options.resolve } : {}) });
  const service = createWebhookService({ store, destinations });
  const bySubject: Record<string, ResourceState> = {};
  for (const s of subjects) {
    if (Object.hasOwn(bySubject, s.subject)) throw new Error(`two services answer for webhook events of ${s.subject}`);
    bySubject[s.subject] = s.state;
  }
  const dispatcher = createWebhookDispatcher({
    store, logger, timeoutMs: config.webhookTimeoutMs, destinations, drainOutbox: () => service.drainOutbox(), subjects: bySubject,
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    ...(options.shared ? { recoverEveryMs: WEBHOOK_RECOVERY_MS } : {}),
  });
  return { service, dispatcher };
}
