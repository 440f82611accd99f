import type { Db } from './database.js';
import type { DeliveryRecord, OutboxEvent, WebhookAttempt, WebhookRecord, WebhookStore } from '../services/storage.js';
import type { FieldCipher } from './crypto/field-cipher.js';
import {
  deliveryFromRow, hookFromRow, sealDeliverySecret, sealHookSecret, type DeliveryRow, type HookRow,
} from './rows/webhooks.js';

/** SQLite store of account webhooks, queued deliveries and every delivery attempt; signing secrets are stored encrypted. */
export function createWebhookStore(db: Db, cipher: FieldCipher): WebhookStore {
  const toHook = (r: HookRow): WebhookRecord => hookFromRow(cipher, r);
  const toDelivery = (r: DeliveryRow): DeliveryRecord => deliveryFromRow(cipher, r);
  const s = {
    insert: db.prepare('INSERT INTO webhooks (id, account_id, url, events, secret, created_at) VALUES (?,?,?,?,?,?)'),
    list: db.prepare('SELECT * FROM webhooks WHERE account_id = ? ORDER BY created_at, id'),
    get: db.prepare('SELECT * FROM webhooks WHERE account_id = ? AND id = ?'),
    del: db.prepare('DELETE FROM webhooks WHERE account_id = ? AND id = ?'),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (id, account_id, webhook_id, url, secret, event, resource_id, status, attempts, next_attempt_at, created_at, updated_at)
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
    ),
    claim: db.prepare(
      `UPDATE webhook_deliveries SET status = 'delivering', updated_at = ?
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?)
       RETURNING *`,
    ),
    update: db.prepare(
      'UPDATE webhook_deliveries SET status = ?, attempts = COALESCE(?, attempts), next_attempt_at = COALESCE(?, next_attempt_at), updated_at = ? WHERE id = ?',
    ),
    attempt: db.prepare('INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms) VALUES (?,?,?,?,?,?)'),
    deliveries: db.prepare('SELECT * FROM webhook_deliveries WHERE account_id = ? ORDER BY created_at, id'),
    deliveriesFor: db.prepare('SELECT * FROM webhook_deliveries WHERE account_id = ? AND resource_id = ? ORDER BY created_at, id'),
    attempts: db.prepare(
      'SELECT delivery_id AS deliveryId, attempt, at, status_code AS statusCode, error, duration_ms AS durationMs FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt',
    ),
    recover: db.prepare(`UPDATE webhook_deliveries SET status = 'pending' WHERE status = 'delivering' AND updated_at < ?`),
    outbox: db.prepare(
      `SELECT id, account_id AS accountId, event, resource_id AS resourceId, request_url AS requestUrl, created_at AS createdAt
       FROM webhook_outbox ORDER BY created_at, id LIMIT ?`,
    ),
    takeEvent: db.prepare('DELETE FROM webhook_outbox WHERE id = ?'),
  };
  const insertDelivery = (d: DeliveryRecord): void =>
    void s.insertDelivery.run(d.id, d.accountId, d.webhookId, d.url, sealDeliverySecret(cipher, d.id, d.secret), d.event, d.resourceId, d.status, d.attempts, d.nextAttemptAt, d.createdAt, Date.now());
  // The event leaves the outbox and its deliveries arrive together, or neither does.
  const fanOut = db.transaction((eventId: string, deliveries: DeliveryRecord[]): boolean => {
    if (s.takeEvent.run(eventId).changes === 0) return false;
    for (const d of deliveries) insertDelivery(d);
    return true;
  });
  return {
    insert: async (w) => void s.insert.run(w.id, w.accountId, w.url, JSON.stringify(w.events), sealHookSecret(cipher, w.id, w.secret), w.createdAt),
    list: async (accountId) => (s.list.all(accountId) as HookRow[]).map(toHook),
    get: async (accountId, id) => {
      const row = s.get.get(accountId, id) as HookRow | undefined;
      return row ? toHook(row) : undefined;
    },
    delete: async (accountId, id) => s.del.run(accountId, id).changes > 0,
    insertDelivery: async (d) => insertDelivery(d),
    claimDue: async (now, limit) => (s.claim.all(Date.now(), now, limit) as DeliveryRow[]).map(toDelivery),
    updateDelivery: async (id, c) => void s.update.run(c.status, c.attempts ?? null, c.nextAttemptAt ?? null, Date.now(), id),
    recordAttempt: async (a: WebhookAttempt) => void s.attempt.run(a.deliveryId, a.attempt, a.at, a.statusCode, a.error, a.durationMs),
    listDeliveries: async (accountId, resourceId) =>
      ((resourceId === undefined ? s.deliveries.all(accountId) : s.deliveriesFor.all(accountId, resourceId)) as DeliveryRow[]).map(toDelivery),
    listAttempts: async (deliveryId) => s.attempts.all(deliveryId) as WebhookAttempt[],
    recoverInterrupted: async (options = {}) => s.recover.run(options.claimedBefore ?? Number.MAX_SAFE_INTEGER).changes,
    takeOutbox: async (limit) => s.outbox.all(limit) as OutboxEvent[],
    fanOut: async (eventId, deliveries) => fanOut(eventId, deliveries),
  };
}
