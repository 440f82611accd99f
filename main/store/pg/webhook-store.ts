import type { DeliveryRecord, OutboxEvent, WebhookAttempt, WebhookRecord, WebhookStore } from '../../services/storage.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import {
  deliveryFromRow, hookFromRow, sealDeliverySecret, sealHookSecret, type DeliveryRow, type HookRow,
} from '../rows/webhooks.js';
import { claimantGone } from './instance-lease.js';
import type { Sql } from './sql.js';

interface OutboxRow { id: string; account_id: string; event: string; resource_id: string; request_url: string | null; created_at: number }

/** A delivery's columns in order, with the casts PostgreSQL needs for parameters in a SELECT list. */
const DELIVERY_COLUMNS = 'id, account_id, webhook_id, url, secret, event, resource_id, status, attempts, next_attempt_at, created_at, updated_at';
const DELIVERY_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'integer', 'bigint', 'bigint', 'bigint'];

interface AttemptRow { delivery_id: string; attempt: number; at: number; status_code: number | null; error: string | null; duration_ms: number }

/**
 * PostgreSQL store of account webhooks, queued deliveries and every attempt; signing secrets are
 * sealed as in SQLite. `claimDue` locks due rows with FOR UPDATE SKIP LOCKED, so instances
 * sharing the database never deliver the same attempt twice; it records `instanceId`, and
 * `recoverInterrupted` takes back only deliveries whose instance is gone (see the job store).
 */
export function createPgWebhookStore(sql: Sql, cipher: FieldCipher, instanceId?: number): WebhookStore {
  const toHook = (r: HookRow): WebhookRecord => hookFromRow(cipher, r);
  const toDelivery = (r: DeliveryRow): DeliveryRecord => deliveryFromRow(cipher, r);
  return {
    async insert(w) {
      await sql.query('INSERT INTO webhooks (id, account_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        w.id, w.accountId, w.url, JSON.stringify(w.events), sealHookSecret(cipher, w.id, w.secret), w.createdAt,
      ]);
    },
    async list(accountId) {
      return (await sql.query<HookRow>('SELECT * FROM webhooks WHERE account_id = $1 ORDER BY created_at, id', [accountId])).rows.map(toHook);
    },
    async get(accountId, id) {
      const row = (await sql.query<HookRow>('SELECT * FROM webhooks WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
      return row ? toHook(row) : undefined;
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM webhooks WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
    async insertDelivery(d) {
      await sql.query(
        `INSERT INTO webhook_deliveries (id, account_id, webhook_id, url, secret, event, resource_id, status, attempts, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          d.id, d.accountId, d.webhookId, d.url, sealDeliverySecret(cipher, d.id, d.secret), d.event, d.resourceId,
          d.status, d.attempts, d.nextAttemptAt, d.createdAt, Date.now(),
        ],
      );
    },
    async claimDue(now, limit) {
      const { rows } = await sql.query<DeliveryRow>(
        `WITH due AS (
           SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $2
           ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED
         )
         UPDATE webhook_deliveries d SET status = 'delivering', updated_at = $1, claimed_by = $4
         FROM due WHERE d.id = due.id
         RETURNING d.*`,
        [Date.now(), now, limit, instanceId ?? null],
      );
      return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at).map(toDelivery);
    },
    async updateDelivery(id, c) {
      await sql.query(
        'UPDATE webhook_deliveries SET status = $1, attempts = COALESCE($2, attempts), next_attempt_at = COALESCE($3, next_attempt_at), updated_at = $4 WHERE id = $5',
        [c.status, c.attempts ?? null, c.nextAttemptAt ?? null, Date.now(), id],
      );
    },
    async recordAttempt(a: WebhookAttempt) {
      await sql.query('INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5, $6)', [
        a.deliveryId, a.attempt, a.at, a.statusCode, a.error, a.durationMs,
      ]);
    },
    async listDeliveries(accountId, resourceId) {
      const { rows } = resourceId === undefined
        ? await sql.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE account_id = $1 ORDER BY created_at, id', [accountId])
        : await sql.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE account_id = $1 AND resource_id = $2 ORDER BY created_at, id', [accountId, resourceId]);
      return rows.map(toDelivery);
    },
    async listAttempts(deliveryId) {
      const { rows } = await sql.query<AttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt', [deliveryId]);
      return rows.map((r) => ({ deliveryId: r.delivery_id, attempt: r.attempt, at: r.at, statusCode: r.status_code, error: r.error, durationMs: r.duration_ms }));
    },
    async takeOutbox(limit) {
      const { rows } = await sql.query<OutboxRow>('SELECT * FROM webhook_outbox ORDER BY created_at, id LIMIT $1', [limit]);
      return rows.map((r): OutboxEvent => ({
        id: r.id, accountId: r.account_id, event: r.event, resourceId: r.resource_id, requestUrl: r.request_url, createdAt: r.created_at,
      }));
    },
    async fanOut(eventId, deliveries) {
      // One statement, so atomic: the event is deleted and its deliveries inserted only if this
      // statement deleted it. A second dispatcher's DELETE waits for the first's row lock, then
      // finds nothing and inserts nothing.
      const values: unknown[] = [eventId];
      const rows = deliveries.map((d) => {
        const row = [
          d.id, d.accountId, d.webhookId, d.url, sealDeliverySecret(cipher, d.id, d.secret), d.event, d.resourceId,
          d.status, d.attempts, d.nextAttemptAt, d.createdAt, Date.now(),
        ].map((v, i) => {
          values.push(v);
          return `$${values.length}::${DELIVERY_TYPES[i]}`;
        });
        return `SELECT ${row.join(', ')}`;
      });
      const taken = 'WITH taken AS (DELETE FROM webhook_outbox WHERE id = $1 RETURNING id)';
      if (!rows.length) return (await sql.query(`${taken} SELECT id FROM taken`, values)).rowCount > 0;
      const { rows: took } = await sql.query<{ id: string }>(
        `${taken}, inserted AS (
           INSERT INTO webhook_deliveries (${DELIVERY_COLUMNS})
           SELECT * FROM (${rows.join(' UNION ALL ')}) AS d WHERE EXISTS (SELECT 1 FROM taken)
           RETURNING id
         )
         SELECT id FROM taken`,
        values,
      );
      return took.length > 0;
    },
    async recoverInterrupted(options = {}) {
      return (await sql.query(
        `UPDATE webhook_deliveries SET status = 'pending', claimed_by = NULL
         WHERE status = 'delivering' AND updated_at < $1 AND ${claimantGone('claimed_by')}`,
        [options.claimedBefore ?? Number.MAX_SAFE_INTEGER],
      )).rowCount;
    },
  };
}
