import { randomInt } from 'node:crypto';
import pg from 'pg';
import { scrub } from './sql.js';

// First key of the two-key advisory locks that mark live instances ('clid').
const LEASE_CLASS = 0x636c6964;

/**
 * This process's presence on the shared database: a session advisory lock (LEASE_CLASS, id) held
 * on one connection of its own for as long as the stores are open. Jobs and deliveries record the
 * id of the instance that claimed them; recovery takes back only those whose instance no longer
 * holds its lock. The server drops a lock when its session ends: at once when a process exits,
 * within about a minute (the keepalives set below) when its machine or network goes away.
 */
export interface InstanceLease {
  /** Recorded in `claimed_by` by this instance's claims. */
  readonly id: number;
  close(): Promise<void>;
}

/**
 * SQL condition true for a `claimed_by` whose instance is gone (or that no instance recorded).
 * Reads pg_locks, which every role may read; `column` is a fixed name chosen by the store.
 */
export const claimantGone = (column: string): string =>
  `(${column} IS NULL OR ${column} NOT IN (
     SELECT objid::bigint FROM pg_locks
     WHERE locktype = 'advisory' AND classid = ${LEASE_CLASS}::oid AND objsubid = 2 AND granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())))`;

/** Takes a free instance id and holds its lock until `close`; a lost connection is reopened with the same id. */
export async function acquireInstanceLease(url: string): Promise<InstanceLease> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (wanted: number | undefined): Promise<number> => {
    const next = new pg.Client({ connectionString: url, application_name: 'clindoc-instance', keepAlive: true });
    // A socket error ends the session (and the lock); reconnecting is handled below.
    next.on('error', () => undefined);
    await next.connect().catch(scrub);
    try {
      // A dead peer is noticed by the server within about a minute, freeing the lock.
      await next.query('SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3').catch(scrub);
      for (let tries = 0; tries < 20; tries++) {
        const id = wanted ?? randomInt(1, 2 ** 31 - 1);
        const { rows } = await next.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [LEASE_CLASS, id]).catch(scrub);
        if (rows[0]?.ok) {
          client = next;
          next.once('end', () => {
            if (!closed) reconnect(id);
          });
          return id;
        }
        // Held by another session: a live instance with this id (or our own old session not yet gone).
        if (wanted !== undefined) throw new Error('the instance lease is held by another session');
      }
      throw new Error('no free instance id');
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
  };
  const reconnect = (id: number, delayMs = 1000): void => {
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      if (closed) return;
      connect(id).catch(() => reconnect(id, Math.min(delayMs * 2, 30_000)));
    }, delayMs).unref();
  };
  const id = await connect(undefined);
  return {
    id,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
