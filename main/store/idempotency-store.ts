import type { Db } from './database.js';
import { IDEMPOTENCY_PENDING, type IdempotencyRecord, type IdempotencyStore } from '../services/storage.js';
import { accountRowContext, type FieldCipher } from './crypto/field-cipher.js';

/**
 * SQLite store of first responses to POSTs that carried an Idempotency-Key. The stored body can
 * be a text-to-json answer full of patient data, so it is sealed like the other PHI columns.
 */
export function createIdempotencyStore(db: Db, cipher: FieldCipher): IdempotencyStore {
  const context = (accountId: string, key: string): string => accountRowContext('idempotency_keys.body', accountId, key);
  const get = db.prepare(
    'SELECT request_hash AS requestHash, status_code AS statusCode, body, created_at AS createdAt FROM idempotency_keys WHERE account_id = ? AND key = ?',
  );
  const put = db.prepare(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, status_code, body, created_at) VALUES (?,?,?,?,?,?)
     ON CONFLICT(account_id, key) DO UPDATE SET request_hash = excluded.request_hash, status_code = excluded.status_code,
     body = excluded.body, created_at = excluded.created_at`,
  );
  // A claim is a row with status 0 and a sealed empty body; it replaces only a stale claim or answer.
  const claim = db.prepare(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, status_code, body, created_at) VALUES (?,?,?,${IDEMPOTENCY_PENDING},?,?)
     ON CONFLICT(account_id, key) DO UPDATE SET request_hash = excluded.request_hash, status_code = excluded.status_code,
     body = excluded.body, created_at = excluded.created_at
     WHERE idempotency_keys.created_at < CASE WHEN idempotency_keys.status_code = ${IDEMPOTENCY_PENDING} THEN ? ELSE ? END`,
  );
  const release = db.prepare(`DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status_code = ${IDEMPOTENCY_PENDING} AND created_at = ?`);
  const abandon = db.prepare(`DELETE FROM idempotency_keys WHERE status_code = ${IDEMPOTENCY_PENDING}`);
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  return {
    get: async (accountId, key) => {
      const row = get.get(accountId, key) as IdempotencyRecord | undefined;
      return row ? { ...row, body: cipher.open(row.body, context(accountId, key)) } : undefined;
    },
    put: async (accountId, key, r) => void put.run(accountId, key, r.requestHash, r.statusCode, cipher.seal(r.body, context(accountId, key)), r.createdAt),
    claim: async (accountId, key, c, stale) =>
      claim.run(accountId, key, c.requestHash, cipher.seal('', context(accountId, key)), c.createdAt, stale.pending, stale.answered).changes === 1,
    release: async (accountId, key, createdAt) => void release.run(accountId, key, createdAt),
    abandonClaims: async () => abandon.run().changes,
    purgeOlderThan: async (time) => void purge.run(time),
  };
}
