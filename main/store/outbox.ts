import { randomUUID } from 'node:crypto';
import type { Db } from './database.js';
import type { Announcement } from '../services/storage.js';

/**
 * The webhook outbox on SQLite (issue 29): a conditional write that announces an event and the
 * event itself are one transaction, so a process that dies after a note's final write still
 * leaves its event for the dispatcher (webhook-store.ts's `fanOut` turns it into deliveries).
 */
export function createOutboxWriter(db: Db, table: 'notes' | 'transcriptions') {
  // The account is read from the row just written, in the same transaction.
  const insert = db.prepare(
    `INSERT INTO webhook_outbox (id, account_id, event, resource_id, request_url, created_at)
     SELECT ?, account_id, ?, id, ?, ? FROM ${table} WHERE id = ?`,
  );
  /** Runs `write` and, when it wrote and there is an announcement, records the event; both or neither. */
  return (id: string, write: () => boolean, announce: Announcement | undefined): boolean => {
    if (!announce) return write();
    return db.transaction(() => {
      if (!write()) return false;
      insert.run(`evt_${randomUUID().replace(/-/g, '')}`, announce.event, announce.requestUrl ?? null, Date.now(), id);
      return true;
    })();
  };
}
