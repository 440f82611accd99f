import type { AccountRecord, AccountStore, ApiKeyRecord } from '../../services/storage.js';
import type { Sql } from './sql.js';

interface KeyRow { id: string; account_id: string; hash: string; created_at: number; revoked_at: number | null; last_used_at: number | null }
interface AccountRow { id: string; name: string; created_at: number; operator: boolean }

const toAccount = (r: AccountRow): AccountRecord => ({ id: r.id, name: r.name, createdAt: r.created_at, operator: r.operator });
const toKey = (r: Omit<KeyRow, 'hash'>): ApiKeyRecord => ({
  id: r.id, accountId: r.account_id, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at,
});

/** PostgreSQL implementation of the accounts, API keys and streaming tokens port. */
export function createPgAccountStore(sql: Sql): AccountStore {
  return {
    async createAccount(a) {
      await sql.query('INSERT INTO accounts (id, name, created_at, operator) VALUES ($1, $2, $3, $4)', [a.id, a.name, a.createdAt, a.operator ?? false]);
    },
    async listAccounts() {
      return (await sql.query<AccountRow>('SELECT id, name, created_at, operator FROM accounts ORDER BY created_at, id')).rows.map(toAccount);
    },
    async getAccount(id) {
      const row = (await sql.query<AccountRow>('SELECT id, name, created_at, operator FROM accounts WHERE id = $1', [id])).rows[0];
      return row ? toAccount(row) : undefined;
    },
    async setOperator(id, operator) {
      return (await sql.query('UPDATE accounts SET operator = $1 WHERE id = $2', [operator, id])).rowCount > 0;
    },
    async countAccounts() {
      return (await sql.query<{ n: number }>('SELECT COUNT(*) AS n FROM accounts')).rows[0]!.n;
    },
    async insertKey(k) {
      await sql.query('INSERT INTO api_keys (id, account_id, hash, created_at, revoked_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        k.id, k.accountId, k.hash, k.createdAt, k.revokedAt, k.lastUsedAt,
      ]);
    },
    async findKeyByHash(hash) {
      const row = (await sql.query<KeyRow>('SELECT * FROM api_keys WHERE hash = $1', [hash])).rows[0];
      return row ? { ...toKey(row), hash: row.hash } : undefined;
    },
    async listKeys(accountId) {
      const { rows } = await sql.query<Omit<KeyRow, 'hash'>>(
        'SELECT id, account_id, created_at, revoked_at, last_used_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [accountId],
      );
      return rows.map(toKey);
    },
    async revokeKey(keyId, at) {
      return (await sql.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, keyId])).rowCount > 0;
    },
    async touchKey(keyId, at) {
      await sql.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, keyId]);
    },
    async insertStreamToken(t) {
      await sql.query('INSERT INTO stream_tokens (hash, account_id, key_id, expires_at) VALUES ($1, $2, $3, $4)', [t.hash, t.accountId, t.keyId, t.expiresAt]);
    },
    async findStreamToken(hash) {
      const row = (await sql.query<{ account_id: string; key_id: string; expires_at: number }>(
        'SELECT account_id, key_id, expires_at FROM stream_tokens WHERE hash = $1', [hash],
      )).rows[0];
      return row ? { accountId: row.account_id, keyId: row.key_id, expiresAt: row.expires_at } : undefined;
    },
    async deleteExpiredStreamTokens(now) {
      await sql.query('DELETE FROM stream_tokens WHERE expires_at < $1', [now]);
    },
  };
}
