import { IDEMPOTENCY_PENDING, type IdempotencyStore } from '../../services/storage.js';
import { accountRowContext, type FieldCipher } from '../crypto/field-cipher.js';
import type { Sql } from './sql.js';
import { claimantGone } from './instance-lease.js';

interface Row { request_hash: string; status_code: number; body: string; created_at: number }

/**
 * PostgreSQL store of first responses to POSTs that carried an Idempotency-Key; the body is
 * sealed under the same context as in SQLite, so a value reads the same on either database.
 */
export function createPgIdempotencyStore(sql: Sql, cipher: FieldCipher, instanceId?: number): IdempotencyStore {
  const context = (accountId: string, key: string): string => accountRowContext('idempotency_keys.body', accountId, key);
  return {
    async get(accountId, key) {
      const row = (await sql.query<Row>(
        'SELECT request_hash, status_code, body, created_at FROM idempotency_keys WHERE account_id = $1 AND key = $2', [accountId, key],
      )).rows[0];
      return row
        ? { requestHash: row.request_hash, statusCode: row.status_code, body: cipher.open(row.body, context(accountId, key)), createdAt: row.created_at }
        : undefined;
    },
    async put(accountId, key, r) {
      await sql.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, status_code, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
         body = EXCLUDED.body, created_at = EXCLUDED.created_at`,
        [accountId, key, r.requestHash, r.statusCode, cipher.seal(r.body, context(accountId, key)), r.createdAt],
      );
    },
    async claim(accountId, key, c, stale) {
      // A claim is a row with status 0 and a sealed empty body, naming its instance; it replaces only
      // a stale answer, or a claim that is stale or whose instance is gone.
      const taken = await sql.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, status_code, body, created_at, claimed_by)
         VALUES ($1, $2, $3, ${IDEMPOTENCY_PENDING}, $4, $5, $8)
         ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
         body = EXCLUDED.body, created_at = EXCLUDED.created_at, claimed_by = EXCLUDED.claimed_by
         WHERE CASE WHEN idempotency_keys.status_code = ${IDEMPOTENCY_PENDING}
           THEN idempotency_keys.created_at < $6::bigint OR ${claimantGone('idempotency_keys.claimed_by')}
           ELSE idempotency_keys.created_at < $7::bigint END
         RETURNING created_at`,
        [accountId, key, c.requestHash, cipher.seal('', context(accountId, key)), c.createdAt, stale.pending, stale.answered, instanceId ?? null],
      );
      return taken.rows.length === 1;
    },
    async release(accountId, key, createdAt) {
      await sql.query(
        `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND status_code = ${IDEMPOTENCY_PENDING} AND created_at = $3`,
        [accountId, key, createdAt],
      );
    },
    async purgeOlderThan(time) {
      await sql.query('DELETE FROM idempotency_keys WHERE created_at < $1', [time]);
    },
  };
}
