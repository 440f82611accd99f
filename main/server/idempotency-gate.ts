/**
 * The Idempotency-Key gate of POST routes: a request takes its key (claimed in the database, so API
 * instances sharing it run a request once), or finds the first request's answer to replay. A retry
 * that arrives while the first is still running waits for it: on this instance behind a slot in
 * memory, on another instance on the key's claim in the database.
 */
import { DomainError, invalidRequest } from '../services/errors.js';
import { IDEMPOTENCY_PENDING, type IdempotencyRecord, type IdempotencyStore } from '../services/storage.js';

/** How long a first answer is replayed. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim older than this is taken over: its instance died before answering. */
const IDEMPOTENCY_CLAIM_STALE_MS = 10 * 60 * 1000;
/** How long a retry waits for the first request with its key, running on another instance. */
const IDEMPOTENCY_WAIT_MS = 30 * 1000;
const IDEMPOTENCY_POLL_MS = 50;

/** What the gate decided for one request. `leave` frees its slot on this instance; call it once the answer is settled. */
export type IdempotencyEntry =
  | { kind: 'gone'; leave(): void }
  | { kind: 'replay'; answer: IdempotencyRecord; leave(): void }
  | {
    kind: 'claimed';
    /** Keeps the answer for retries; the work is done, so a failure to keep it gives the claim back instead of failing the request. */
    keep(statusCode: number, body: string): Promise<void>;
    /** Gives the claim back (no answer to keep), so a retry runs afresh; a store failure leaves the claim to go stale. */
    giveBack(): Promise<void>;
    leave(): void;
  };

export interface IdempotencyGateDeps {
  store: IdempotencyStore;
  /** Called when a request waits on its key, held by a request still running here or on another instance (metrics). */
  onWait?: () => void;
}

export function createIdempotencyGate(deps: IdempotencyGateDeps) {
  /** Requests with an Idempotency-Key still being answered on this instance, by account and key. */
  const inFlight = new Map<string, Promise<void>>();

  /**
   * Takes `key` for a request whose body hashes to `requestHash`. `clientGone` is asked after a
   * wait behind this instance's slot: a client that went away meanwhile gets no work done for it.
   */
  const enter = async (accountId: string, key: string, requestHash: string, clientGone: () => boolean): Promise<IdempotencyEntry> => {
    const slot = `${accountId}\n${key}`;
    if (inFlight.has(slot)) deps.onWait?.();
    for (let running = inFlight.get(slot); running; running = inFlight.get(slot)) await running;
    if (clientGone()) return { kind: 'gone', leave: () => undefined };
    let opened!: () => void;
    inFlight.set(slot, new Promise<void>((resolve) => (opened = resolve)));
    const leave = (): void => {
      inFlight.delete(slot);
      opened();
    };
    try {
      const taken = await take(accountId, key, requestHash);
      if (taken.answer) return { kind: 'replay', answer: taken.answer, leave };
      const claimedAt = taken.claimedAt;
      const giveBack = async (): Promise<void> => {
        await deps.store.release(accountId, key, claimedAt).catch(() => undefined);
      };
      return {
        kind: 'claimed', leave, giveBack,
        keep: (statusCode, body) => deps.store.put(accountId, key, { requestHash, statusCode, body, createdAt: Date.now() }).catch(giveBack),
      };
    } catch (err) {
      leave();
      throw err;
    }
  };

  /**
   * Claims the key, or finds the first request's answer. A key held by a request still running
   * elsewhere is waited for; a key used with another body is a 400; one still held after the wait
   * is a 409 the client may retry.
   */
  const take = async (accountId: string, key: string, requestHash: string): Promise<{ claimedAt: number; answer?: undefined } | { claimedAt?: undefined; answer: IdempotencyRecord }> => {
    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    let waited = false;
    for (;;) {
      const now = Date.now();
      const staleBefore = { pending: now - IDEMPOTENCY_CLAIM_STALE_MS, answered: now - IDEMPOTENCY_TTL_MS };
      if (await deps.store.claim(accountId, key, { requestHash, createdAt: now }, staleBefore)) return { claimedAt: now };
      const standing = await deps.store.get(accountId, key);
      // Gone between the two reads (the first request failed and gave its claim back): claim again.
      if (!standing) continue;
      if (standing.requestHash !== requestHash) throw invalidRequest('Idempotency-Key: already used with a different request body');
      if (standing.statusCode !== IDEMPOTENCY_PENDING) return { answer: standing };
      if (Date.now() > deadline) {
        throw new DomainError('conflict', 'Idempotency-Key: the first request with this key is still being processed; retry later');
      }
      if (!waited) deps.onWait?.();
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, IDEMPOTENCY_POLL_MS));
    }
  };

  return { enter };
}

export type IdempotencyGate = ReturnType<typeof createIdempotencyGate>;
