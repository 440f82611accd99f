import type { DeliveryRecord, WebhookRecord } from '../../services/storage.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';

/** A row of the webhooks table as both databases return it. */
export interface HookRow { id: string; account_id: string; url: string; events: string; secret: string; created_at: number }

/** A row of the webhook_deliveries table as both databases return it. */
export interface DeliveryRow {
  id: string; account_id: string; webhook_id: string | null; url: string; secret: string; event: string; resource_id: string;
  status: DeliveryRecord['status']; attempts: number; next_attempt_at: number; created_at: number;
}

/** The webhook a row holds, its signing secret opened. */
export function hookFromRow(cipher: FieldCipher, r: HookRow): WebhookRecord {
  return {
    id: r.id, accountId: r.account_id, url: r.url, events: JSON.parse(r.events) as string[],
    secret: cipher.open(r.secret, rowContext('webhooks.secret', r.id)), createdAt: r.created_at,
  };
}

/** The queued delivery a row holds, its signing secret opened. */
export function deliveryFromRow(cipher: FieldCipher, r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id, accountId: r.account_id, webhookId: r.webhook_id, url: r.url, secret: cipher.open(r.secret, rowContext('webhook_deliveries.secret', r.id)),
    event: r.event, resourceId: r.resource_id, status: r.status, attempts: r.attempts, nextAttemptAt: r.next_attempt_at, createdAt: r.created_at,
  };
}

/** Seals the signing secret of webhook `id`. */
export function sealHookSecret(cipher: FieldCipher, id: string, secret: string): string {
  return cipher.seal(secret, rowContext('webhooks.secret', id));
}

/** Seals the signing secret copied onto delivery `id`. */
export function sealDeliverySecret(cipher: FieldCipher, id: string, secret: string): string {
  return cipher.seal(secret, rowContext('webhook_deliveries.secret', id));
}
