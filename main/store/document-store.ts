import type { Db } from './database.js';
import type { DocumentStore, TemplateRecord } from '../services/storage.js';
import { createPager } from './paging.js';
import { accountRowContext, type FieldCipher } from './crypto/field-cipher.js';

interface Row { id: string; account_id: string; body: string; created_at: number; updated_at: number }

const toRecord = (cipher: FieldCipher, table: string, r: Row): TemplateRecord => ({
  id: r.id, accountId: r.account_id, body: JSON.parse(cipher.open(r.body, accountRowContext(`${table}.body`, r.account_id, r.id))) as unknown, createdAt: r.created_at, updatedAt: r.updated_at,
});

/**
 * SQLite JSON-document store keyed by (account, id), for tables shaped like `note_templates`
 * and `macros`. `table` is one of a fixed list, never caller input. Bodies are stored encrypted.
 */
export function createDocumentStore(db: Db, table: 'note_templates' | 'macros' | 'voice_adaptation', cipher: FieldCipher): DocumentStore {
  const toDoc = (r: Row): TemplateRecord => toRecord(cipher, table, r);
  const put = db.prepare(
    `INSERT INTO ${table} (id, account_id, body, created_at, updated_at) VALUES (?,?,?,?,?)
     ON CONFLICT(account_id, id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
  );
  const insertNew = db.prepare(
    `INSERT INTO ${table} (id, account_id, body, created_at, updated_at) VALUES (?,?,?,?,?) ON CONFLICT(account_id, id) DO NOTHING`,
  );
  const replace = db.prepare(`UPDATE ${table} SET body = ?, updated_at = ? WHERE account_id = ? AND id = ?`);
  const get = db.prepare(`SELECT * FROM ${table} WHERE account_id = ? AND id = ?`);
  const page = createPager<Row>(db, table);
  const del = db.prepare(`DELETE FROM ${table} WHERE account_id = ? AND id = ?`);
  return {
    put: async (r, only) => {
      const body = cipher.seal(JSON.stringify(r.body), accountRowContext(`${table}.body`, r.accountId, r.id));
      if (only === 'existing') return replace.run(body, r.updatedAt, r.accountId, r.id).changes > 0;
      return (only === 'new' ? insertNew : put).run(r.id, r.accountId, body, r.createdAt, r.updatedAt).changes > 0;
    },
    get: async (accountId, id) => {
      const row = get.get(accountId, id) as Row | undefined;
      return row ? toDoc(row) : undefined;
    },
    list: async (accountId, limit, cursor) => page(accountId, limit, cursor, toDoc),
    delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
