import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { DeliveryRecord, WebhookStore } from '../services/storage.js';
import { isOutOfSpace } from '../services/errors.js';
import { subjectOf, type ResourceState } from '../services/background-work.js';
import { createOnePass } from './one-pass.js';
import { postToDestination, type CheckedDestination } from './webhook-destination.js';

/** Standard Webhooks' retry schedule, reaching past 24 hours: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface DispatcherOptions {
  store: WebhookStore;
  logger: Logger;
  /**
   * Re-reads the object an event is about, by the event's subject (`note_generation` for
   * `note_generation.succeeded`): each service that sends events registers its own. A deleted
   * object's events, and events of a subject nobody registered, are not delivered.
   */
  subjects: Record<string, ResourceState>;
  retryDelaysMs?: number[];
  timeoutMs?: number;
  pollMs?: number;
  /**
   * How often, while running, deliveries left sending by an instance that is gone are put back to
   * pending. Only for a store whose recovery spares the claims of instances still alive (PostgreSQL,
   * where a worker killed mid-send must not strand its deliveries until some instance restarts);
   * absent, recovery runs once at start, as a single process on SQLite needs.
   */
  recoverEveryMs?: number;
  /**
   * How long a delivery must have been claimed before a periodic recovery takes it (default the
   * attempt's timeout plus 30 s): a sender whose lease merely blinked (a database failover) is still
   * inside its attempt then, and must not be doubled.
   */
  recoverClaimedForMs?: number;
  /**
   * The destination policy (webhook-destination.ts): each attempt resolves the URL's host once,
   * refuses a destination the policy does not allow, and connects to the address it checked.
   */
  destinations: { resolveForDelivery(url: string): Promise<CheckedDestination> };
  /**
   * Turns events in the outbox (written with the note or transcription that caused them) into
   * deliveries; resolves with the number of events taken. Called at each pass before claiming, so an
   * event a dead process left in the outbox goes out at the next start or the next pass of any instance.
   */
  drainOutbox?: () => Promise<number>;
  /** Sends one attempt to a checked destination; default an HTTP(S) POST pinned to its address. */
  send?: typeof postToDestination;
}

/** Signs a body the Standard Webhooks way: v1,base64(HMAC-SHA256(key, "id.timestamp.body")). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

type DeliveryPatch = Parameters<WebhookStore['updateDelivery']>[1];

/** The body and headers of one attempt, signed the Standard Webhooks way. */
function signedRequest(d: DeliveryRecord, status: string): { body: string; headers: Record<string, string> } {
  const timestamp = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    type: d.event,
    timestamp: new Date(timestamp * 1000).toISOString(),
    data: { id: d.resourceId, status },
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Clindoc-Webhooks/1',
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(d.secret, d.id, timestamp, body),
    },
  };
}

/** Sends one attempt; resolves with the receiver's status code, or why there was none. */
async function sendAttempt(
  d: DeliveryRecord, request: { body: string; headers: Record<string, string> },
  options: Pick<DispatcherOptions, 'destinations'> & { send: typeof postToDestination; timeoutMs: number },
): Promise<{ statusCode: number | null; error: string | null }> {
  let error: string | null = null;
  try {
    // Resolved and checked at every attempt: a name registered while it pointed elsewhere is refused
    // once it points at a refused address, and the attempt connects to exactly the address checked.
    const destination = await options.destinations.resolveForDelivery(d.url).catch((err: unknown) => {
      error = /does not resolve/.test((err as Error).message) ? 'host not found' : 'destination refused';
      throw err;
    });
    return { statusCode: await options.send(destination, request.headers, request.body, options.timeoutMs), error: null };
  } catch (err) {
    const name = (err as Error).name;
    return { statusCode: null, error: error ?? (name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'connection failed') };
  }
}

/** One delivery attempt: re-reads the object, sends, records the attempt and what comes next (delivered, retried later, abandoned). */
function createAttempt(options: DispatcherOptions, delays: number[], timeoutMs: number) {
  const { store, logger } = options;
  const send = options.send ?? postToDestination;
  return async (d: DeliveryRecord): Promise<void> => {
    // Only a subject a service registered: an event named after an Object.prototype member finds nothing.
    const subject = subjectOf(d.event);
    const state = Object.hasOwn(options.subjects, subject) ? await options.subjects[subject]!(d.accountId, d.resourceId) : undefined;
    if (!state) {
      await store.updateDelivery(d.id, { status: 'cancelled' });
      return;
    }
    const number = d.attempts + 1;
    const started = Date.now();
    const { statusCode, error } = await sendAttempt(d, signedRequest(d, state.status), { destinations: options.destinations, send, timeoutMs });
    await store.recordAttempt({ deliveryId: d.id, attempt: number, at: started, statusCode, error, durationMs: Date.now() - started });
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      await store.updateDelivery(d.id, { status: 'delivered', attempts: number });
      return;
    }
    if (number > delays.length) {
      await store.updateDelivery(d.id, { status: 'failed', attempts: number });
      logger.warn({ deliveryId: d.id, attempts: number }, 'webhook delivery abandoned');
      return;
    }
    await store.updateDelivery(d.id, { status: 'pending', attempts: number, nextAttemptAt: Date.now() + (delays[number - 1] ?? 0) });
  };
}

/** Delivery states a full disk would not let us write: kept here and written at the next pass, so a delivery is never stranded half-sent until a restart. */
function createUnsaved(store: WebhookStore, logger: Logger) {
  const unsaved = new Map<string, DeliveryPatch>();
  return {
    async save(id: string, patch: DeliveryPatch): Promise<void> {
      try {
        await store.updateDelivery(id, patch);
      } catch (err) {
        if (!isOutOfSpace(err)) logger.error({ errName: (err as Error)?.name }, 'webhook delivery state could not be saved');
        unsaved.set(id, patch);
      }
    },
    async flush(): Promise<void> {
      for (const [id, patch] of unsaved) {
        await store.updateDelivery(id, patch);
        unsaved.delete(id);
      }
    },
  };
}

/**
 * Delivers queued webhook events in the background: signed, no redirects followed, a timeout
 * per attempt, the response body never read beyond its status, exponential backoff, every
 * attempt recorded. It never blocks the work that produced the event. Deliveries are claimed by
 * one pass at a time (the store's claim is one conditional UPDATE, so no delivery is sent twice).
 */
export function createWebhookDispatcher(options: DispatcherOptions) {
  const { store, logger } = options;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pollMs = options.pollMs ?? 1000;
  const claimedForMs = options.recoverClaimedForMs ?? timeoutMs + 30_000;
  const attempt = createAttempt(options, delays, timeoutMs);
  const unsaved = createUnsaved(store, logger);
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let recoveredAt = Date.now();
  const inFlight = new Set<Promise<void>>();

  /** On a shared database: takes back what an instance that is gone left sending. */
  const recoverPeriodically = async (): Promise<void> => {
    if (options.recoverEveryMs === undefined || Date.now() - recoveredAt < options.recoverEveryMs) return;
    recoveredAt = Date.now();
    const taken = await store.recoverInterrupted({ claimedBefore: recoveredAt - claimedForMs });
    if (taken > 0) logger.info({ deliveries: taken }, 'webhook deliveries of a stopped instance taken back');
  };

  /** A bounded number of batches per pass, so a backlog never holds up the deliveries already due; an outbox that cannot be drained now (a full disk) is tried again next pass, after the sends. */
  const drainOutbox = async (): Promise<void> => {
    try {
      for (let round = 0; options.drainOutbox && round < 20 && (await options.drainOutbox()) > 0; round++);
    } catch (err) {
      if (!isOutOfSpace(err)) logger.error({ errName: (err as Error)?.name }, 'webhook outbox could not be drained');
    }
  };

  /** One pass: writes unsaved states, recovers, drains the outbox, claims and sends; never rejects (failures are logged, and the next tick tries again). */
  const pumpOnce = async (): Promise<void> => {
    try {
      await unsaved.flush();
      if (!started) return;
      await recoverPeriodically();
      await drainOutbox();
      for (const d of await store.claimDue(Date.now(), 10)) {
        const p = attempt(d)
          .catch(() => unsaved.save(d.id, { status: 'pending', nextAttemptAt: Date.now() + (delays[0] ?? 0) }))
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    } catch (err) {
      // Claiming writes too: on a full disk (or any store failure) the next tick tries again.
      if (!isOutOfSpace(err)) logger.error({ errName: (err as Error)?.name }, 'webhook queue could not be read');
    }
  };

  const passes = createOnePass(pumpOnce, () => started);
  const pump = passes.request;

  /**
   * Recovery is a pass of its own, before the first claim: a delivery claimed first would be put back
   * to pending by it and sent twice. On a full disk those deliveries wait for the next start; any
   * other failure means the dispatcher did not start.
   */
  const recoverAtStart = (): Promise<void> => passes.exclusive(async () => {
    try {
      await store.recoverInterrupted();
      recoveredAt = Date.now();
    } catch (err) {
      if (isOutOfSpace(err)) return;
      started = false;
      throw err;
    }
  });

  return {
    /**
     * Puts deliveries a previous exit left sending back to pending, then delivers on a timer.
     * Rejects when the queue cannot be read; on a full disk those deliveries wait for the next start.
     */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      await recoverAtStart();
      const tick = (): void => {
        pump();
        timer = setTimeout(tick, pollMs);
        timer.unref();
      };
      tick();
    },
    wake: (): void => {
      setImmediate(pump);
    },
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      await passes.settled(); // a claim in flight lands in `inFlight` first
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
