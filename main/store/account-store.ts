import type { Db } from './database.js';
import type { AccountRecord, AccountStore, ApiKeyRecord } from '../services/storage.js';

interface AccountRow { id: string; name: string; createdAt: number; operator: number }

const toAccount = (r: AccountRow): AccountRecord => ({ id: r.id, name: r.name, createdAt: r.createdAt, operator: r.operator === 1 });

interface KeyRow { id: string; account_id: string; hash: string; created_at: number; revoked_at: number | null; last_used_at: number | null }

const toKey = (row: KeyRow): ApiKeyRecord & { hash: string } => ({
  id: row.id,
  accountId: row.account_id,
  hash: row.hash,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/**
 * SQLite implementation of the accounts, API keys and streaming tokens port. better-sqlite3 is
 * synchronous: each method runs its prepared statement at once and returns it as a settled promise.
 */
export function createAccountStore(db: Db): AccountStore {
  const stmts = {
    insertAccount: db.prepare('INSERT INTO accounts (id, name, created_at, operator) VALUES (?, ?, ?, ?)'),
    listAccounts: db.prepare('SELECT id, name, created_at AS createdAt, operator FROM accounts ORDER BY created_at, id'),
    getAccount: db.prepare('SELECT id, name, created_at AS createdAt, operator FROM accounts WHERE id = ?'),
    setOperator: db.prepare('UPDATE accounts SET operator = ? WHERE id = ?'),
    countAccounts: db.prepare('SELECT COUNT(*) AS n FROM accounts'),
    insertKey: db.prepare('INSERT INTO api_keys (id, account_id, hash, created_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)'),
    findKey: db.prepare('SELECT * FROM api_keys WHERE hash = ?'),
    listKeys: db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
    revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    touchKey: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    insertToken: db.prepare('INSERT INTO stream_tokens (hash, account_id, key_id, expires_at) VALUES (?, ?, ?, ?)'),
    findToken: db.prepare('SELECT account_id AS accountId, key_id AS keyId, expires_at AS expiresAt FROM stream_tokens WHERE hash = ?'),
    purgeTokens: db.prepare('DELETE FROM stream_tokens WHERE expires_at < ?'),
  };
  return {
    createAccount: async (a: AccountRecord) => void stmts.insertAccount.run(a.id, a.name, a.createdAt, a.operator ? 1 : 0),
    listAccounts: async () => (stmts.listAccounts.all() as AccountRow[]).map(toAccount),
    getAccount: async (id) => {
      const row = stmts.getAccount.get(id) as AccountRow | undefined;
      return row ? toAccount(row) : undefined;
    },
    setOperator: async (id, operator) => stmts.setOperator.run(operator ? 1 : 0, id).changes > 0,
    countAccounts: async () => (stmts.countAccounts.get() as { n: number }).n,
    insertKey: async (k) => void stmts.insertKey.run(k.id, k.accountId, k.hash, k.createdAt, k.revokedAt, k.lastUsedAt),
    findKeyByHash: async (hash) => {
      const row = stmts.findKey.get(hash) as KeyRow | undefined;
      return row ? toKey(row) : undefined;
    },
    listKeys: async (accountId) => (stmts.listKeys.all(accountId) as KeyRow[]).map(({ hash: _hash, ...row }) => {
      const { hash: _h, ...key } = toKey({ ...row, hash: '' });
      return key;
    }),
    revokeKey: async (keyId, at) => stmts.revokeKey.run(at, keyId).changes > 0,
    touchKey: async (keyId, at) => void stmts.touchKey.run(at, keyId),
    insertStreamToken: async (t) => void stmts.insertToken.run(t.hash, t.accountId, t.keyId, t.expiresAt),
    findStreamToken: async (hash) => stmts.findToken.get(hash) as { accountId: string; keyId: string; expiresAt: number } | undefined,
    deleteExpiredStreamTokens: async (now) => void stmts.purgeTokens.run(now),
  };
}
