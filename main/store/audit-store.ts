import type { Db } from './database.js';
import type { AuditEvent, AuditFilter, AuditStore, ExpiredItem, RetentionStore } from '../services/audit/ports.js';
import { invalidRequest } from '../services/errors.js';

interface Row {
  seq: number; id: string; at: number; account_id: string | null; key_id: string | null; actor: string; action: AuditEvent['action'];
  resource_type: AuditEvent['resourceType']; resource_id: string | null; operation: string | null; ip: string | null;
  outcome: AuditEvent['outcome']; status: number | null; request_id: string | null; signer: string | null;
}

const toEvent = (r: Row): AuditEvent => ({
  id: r.id, at: r.at, accountId: r.account_id, keyId: r.key_id, actor: r.actor, action: r.action, resourceType: r.resource_type,
  resourceId: r.resource_id, operation: r.operation, ip: r.ip, outcome: r.outcome, status: r.status, requestId: r.request_id, signer: r.signer,
});

/** How the trail batches its writes. */
export interface AuditStoreOptions {
  /** How long an event may wait before its batch is written (default 10 ms). */
  flushAfterMs?: number;
  /** A batch is written at once when it reaches this many events (default 256). */
  maxBatch?: number;
  /** Hears a batch that could not be written (a full disk); its events are kept and retried. */
  onError?: (err: unknown) => void;
}

/** Stores with events not yet written, flushed when the process exits (close() flushes first). */
const unflushed = new Set<{ flush(): void }>();
let exitHookInstalled = false;

/**
 * SQLite audit trail. The table has triggers that abort any UPDATE or DELETE, so even code with
 * the database handle can only append; paging runs on the insertion sequence.
 *
 * Events are written in batches, one transaction each: one commit per request cost more than the
 * rest of a `GET /v1/notes/{id}` (issue 19). A batch waits at most `flushAfterMs`; `list`,
 * `flush()` (called by Clindoc's close before the database closes) and the process's exit write
 * what is pending first, so a reader never misses an event and a graceful stop loses none.
 */
export function createAuditStore(db: Db, options: AuditStoreOptions = {}): AuditStore & { flush(): void } {
  const flushAfterMs = options.flushAfterMs ?? 10;
  const maxBatch = options.maxBatch ?? 256;
  const insert = db.prepare(
    `INSERT INTO audit_events (id, at, account_id, key_id, actor, action, resource_type, resource_id, operation, ip, outcome, status, request_id, signer)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const page = db.prepare(
    `SELECT * FROM audit_events WHERE account_id = ? AND seq < ? AND (? IS NULL OR resource_id = ?) AND at >= ?
     ORDER BY seq DESC LIMIT ?`,
  );
  const writeAll = db.transaction((events: AuditEvent[]) => {
    for (const e of events) {
      insert.run(e.id, e.at, e.accountId, e.keyId, e.actor, e.action, e.resourceType, e.resourceId, e.operation, e.ip, e.outcome, e.status, e.requestId, e.signer ?? null);
    }
  });
  let pending: AuditEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const store = {
    /** Writes every pending event now, in one transaction; throws (keeping them) when it cannot. */
    flush(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!db.open) unflushed.delete(store);
      if (!pending.length || !db.open) return;
      const batch = pending;
      pending = [];
      try {
        writeAll(batch);
        unflushed.delete(store);
      } catch (err) {
        pending = batch.concat(pending);
        throw err;
      }
    },
  };
  const flushLater = (): void => {
    try {
      store.flush();
    } catch (err) {
      options.onError?.(err);
      // Kept for the next try (space may come back); retried later rather than in a busy loop.
      if (db.open && !timer) timer = setTimeout(flushLater, 1000).unref();
    }
  };
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const s of unflushed) {
        try {
          s.flush();
        } catch {
          // nothing left to report to at exit
        }
      }
    });
  }
  return {
    flush: store.flush,
    // Resolves once the event is in the batch; a batch that cannot be written goes to `onError` and is retried.
    async append(e) {
      pending.push(e);
      unflushed.add(store);
      if (pending.length >= maxBatch) flushLater();
      // unref: a pending batch alone must not keep a finished process alive (the exit hook writes it).
      else timer ??= setTimeout(flushLater, flushAfterMs).unref();
    },
    async list(accountId, limit, cursor, filter: AuditFilter = {}) {
      flushLater(); // a full disk must not stop the trail being read
      let before = Number.MAX_SAFE_INTEGER;
      if (cursor !== undefined) {
        if (!/^[1-9]\d{0,15}$/.test(cursor)) throw invalidRequest('cursor: not a cursor returned by this API');
        before = Number(cursor);
      }
      const rows = page.all(accountId, before, filter.resourceId ?? null, filter.resourceId ?? null, filter.since ?? 0, limit + 1) as Row[];
      const more = rows.length > limit;
      const kept = more ? rows.slice(0, limit) : rows;
      return { items: kept.map(toEvent), nextCursor: more ? String(kept[kept.length - 1]!.seq) : null };
    },
  };
}

/** SQLite retention settings and expiry query (notes and transcriptions by creation time). */
export function createRetentionStore(db: Db): RetentionStore {
  const get = db.prepare('SELECT retention_days AS days FROM account_settings WHERE account_id = ?');
  const set = db.prepare(
    `INSERT INTO account_settings (account_id, retention_days) VALUES (?, ?)
     ON CONFLICT(account_id) DO UPDATE SET retention_days = excluded.retention_days`,
  );
  // Cut-off per account: COALESCE(own setting, default); 0 keeps everything.
  const expired = db.prepare(
    `WITH policy AS (
       SELECT a.id AS account_id, COALESCE(s.retention_days, @defaultDays) AS days
       FROM accounts a LEFT JOIN account_settings s ON s.account_id = a.id
     )
     SELECT 'note' AS type, n.account_id AS accountId, n.id AS id, NULL AS audioBlob FROM notes n
       JOIN policy p ON p.account_id = n.account_id
       WHERE p.days > 0 AND n.created_at < @now - p.days * 86400000
     UNION ALL
     SELECT 'transcription', t.account_id, t.id, t.audio_blob FROM transcriptions t
       JOIN policy p ON p.account_id = t.account_id
       WHERE p.days > 0 AND t.created_at < @now - p.days * 86400000
     UNION ALL
     SELECT 'visit', v.account_id, v.id, NULL FROM visits v
       JOIN policy p ON p.account_id = v.account_id
       WHERE p.days > 0 AND v.created_at < @now - p.days * 86400000
     LIMIT @limit`,
  );
  return {
    getRetentionDays: async (accountId) => (get.get(accountId) as { days: number | null } | undefined)?.days ?? null,
    setRetentionDays: async (accountId, days) => void set.run(accountId, days),
    findExpired: async (now, defaultDays, limit) => expired.all({ now, defaultDays, limit }) as ExpiredItem[],
  };
}
