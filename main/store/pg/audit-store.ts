import type { AuditEvent, AuditFilter, AuditStore, ExpiredItem, RetentionStore } from '../../services/audit/ports.js';
import { invalidRequest } from '../../services/errors.js';
import type { Sql } from './sql.js';

interface Row {
  seq: number; id: string; at: number; account_id: string | null; key_id: string | null; actor: string; action: AuditEvent['action'];
  resource_type: AuditEvent['resourceType']; resource_id: string | null; operation: string | null; ip: string | null;
  outcome: AuditEvent['outcome']; status: number | null; request_id: string | null; signer: string | null;
}

/**
 * PostgreSQL text cannot hold a NUL character, which a request may carry in an id (`/v1/notes/%00`);
 * the attempt is still recorded, with U+FFFD in its place, rather than lost.
 */
const storable = (text: string | null): string | null => (text === null ? null : text.replaceAll('\u0000', '\uFFFD'));

const toEvent = (r: Row): AuditEvent => ({
  id: r.id, at: r.at, accountId: r.account_id, keyId: r.key_id, actor: r.actor, action: r.action, resourceType: r.resource_type,
  resourceId: r.resource_id, operation: r.operation, ip: r.ip, outcome: r.outcome, status: r.status, requestId: r.request_id, signer: r.signer,
});

/**
 * PostgreSQL audit trail. Triggers abort UPDATE, DELETE and TRUNCATE on the table, so code with
 * the connection can only append; paging runs on the identity sequence, newest first.
 * Appends are written in order, one INSERT at a time from this process: while one is committing,
 * later events wait and go together in the next (a multi-row INSERT, rows numbered in the order the
 * requests finished). Concurrent single-row INSERTs on a pool committed out of order under load, so
 * a read could precede the upload it read in the trail. Each event resolves once its INSERT has
 * committed: several instances share the trail, so there is no per-process batch that a crashed
 * instance could lose beyond those in flight. Requests do not wait for their event, so a list first
 * waits for this process's pending appends: a client reading its trail right after a burst sees
 * every request of it, as on SQLite.
 */
export function createPgAuditStore(sql: Sql): AuditStore {
  const MAX_BATCH = 200;
  let pending: { e: AuditEvent; done: (err?: unknown) => void }[] = [];
  let draining: Promise<void> | null = null;
  const columns = 14;
  const rowOf = (e: AuditEvent): unknown[] => [
    e.id, e.at, e.accountId, e.keyId, e.actor, e.action, e.resourceType, storable(e.resourceId), storable(e.operation), e.ip, e.outcome, e.status,
    e.requestId, storable(e.signer ?? null),
  ];
  const insert = async (events: AuditEvent[]): Promise<void> => {
    const values = events.map((_, i) => `(${Array.from({ length: columns }, (_, c) => `$${i * columns + c + 1}`).join(', ')})`).join(', ');
    await sql.query(
      `INSERT INTO audit_events (id, at, account_id, key_id, actor, action, resource_type, resource_id, operation, ip, outcome, status, request_id, signer)
       VALUES ${values}`,
      events.flatMap(rowOf),
    );
  };
  const drain = async (): Promise<void> => {
    while (pending.length) {
      const batch = pending.slice(0, MAX_BATCH);
      pending = pending.slice(batch.length);
      try {
        await insert(batch.map((b) => b.e));
        for (const b of batch) b.done();
      } catch (err) {
        // One bad row must not lose the others: a failed batch is retried row by row, in order.
        if (batch.length === 1) batch[0]!.done(err);
        else {
          for (const b of batch) {
            try {
              await insert([b.e]);
              b.done();
            } catch (one) {
              b.done(one);
            }
          }
        }
      }
    }
  };
  const kick = (): Promise<void> => {
    draining ??= drain().finally(() => {
      draining = null;
      // An append made between the loop's last look and this point waits for no one otherwise.
      if (pending.length) void kick();
    });
    return draining;
  };
  return {
    append(e) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ e, done: (err) => (err === undefined ? resolve() : reject(err)) });
        void kick();
      });
    },
    async list(accountId, limit, cursor, filter: AuditFilter = {}) {
      while (draining || pending.length) await kick();
      let before = Number.MAX_SAFE_INTEGER;
      if (cursor !== undefined) {
        if (!/^[1-9]\d{0,15}$/.test(cursor)) throw invalidRequest('cursor: not a cursor returned by this API');
        before = Number(cursor);
      }
      const { rows } = await sql.query<Row>(
        `SELECT * FROM audit_events WHERE account_id = $1 AND seq < $2 AND ($3::text IS NULL OR resource_id = $3) AND at >= $4
         ORDER BY seq DESC LIMIT $5`,
        [accountId, before, filter.resourceId ?? null, filter.since ?? 0, limit + 1],
      );
      const more = rows.length > limit;
      const kept = more ? rows.slice(0, limit) : rows;
      return { items: kept.map(toEvent), nextCursor: more ? String(kept[kept.length - 1]!.seq) : null };
    },
  };
}

/** PostgreSQL retention settings and the expiry query (notes, transcriptions and visits by creation time). */
export function createPgRetentionStore(sql: Sql): RetentionStore {
  return {
    async getRetentionDays(accountId) {
      const row = (await sql.query<{ days: number | null }>('SELECT retention_days AS days FROM account_settings WHERE account_id = $1', [accountId])).rows[0];
      return row?.days ?? null;
    },
    async setRetentionDays(accountId, days) {
      await sql.query(
        `INSERT INTO account_settings (account_id, retention_days) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET retention_days = EXCLUDED.retention_days`,
        [accountId, days],
      );
    },
    // Cut-off per account: COALESCE(own setting, default); 0 keeps everything. Days widen to
    // bigint before the multiplication, which would overflow integer past 24 days.
    async findExpired(now, defaultDays, limit) {
      const { rows } = await sql.query<{ type: ExpiredItem['type']; account_id: string; id: string; audio_blob: string | null }>(
        `WITH policy AS (
           SELECT a.id AS account_id, COALESCE(s.retention_days, $2::integer)::bigint AS days
           FROM accounts a LEFT JOIN account_settings s ON s.account_id = a.id
         )
         SELECT 'note' AS type, n.account_id, n.id, NULL::text AS audio_blob FROM notes n
           JOIN policy p ON p.account_id = n.account_id
           WHERE p.days > 0 AND n.created_at < $1::bigint - p.days * 86400000
         UNION ALL
         SELECT 'transcription', t.account_id, t.id, t.audio_blob FROM transcriptions t
           JOIN policy p ON p.account_id = t.account_id
           WHERE p.days > 0 AND t.created_at < $1::bigint - p.days * 86400000
         UNION ALL
         SELECT 'visit', v.account_id, v.id, NULL FROM visits v
           JOIN policy p ON p.account_id = v.account_id
           WHERE p.days > 0 AND v.created_at < $1::bigint - p.days * 86400000
         LIMIT $3`,
        [now, defaultDays, limit],
      );
      return rows.map((r) => ({ type: r.type, accountId: r.account_id, id: r.id, audioBlob: r.audio_blob }));
    },
  };
}
