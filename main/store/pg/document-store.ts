import type { DocumentStore, TemplateRecord } from '../../services/storage.js';
import { accountRowContext, type FieldCipher } from '../crypto/field-cipher.js';
import { createPgPager } from './paging.js';
import type { Sql } from './sql.js';

interface Row { id: string; account_id: string; body: string; created_at: number; updated_at: number }

/**
 * PostgreSQL JSON-document store keyed by (account, id), for `note_templates` and `macros`.
 * `table` is one of a fixed list, never caller input. Bodies are stored encrypted.
 */
export function createPgDocumentStore(sql: Sql, table: 'note_templates' | 'macros' | 'voice_adaptation', cipher: FieldCipher): DocumentStore {
  const context = (accountId: string, id: string): string => accountRowContext(`${table}.body`, accountId, id);
  const toDoc = (r: Row): TemplateRecord => ({
    id: r.id, accountId: r.account_id, body: JSON.parse(cipher.open(r.body, context(r.account_id, r.id))) as unknown,
    createdAt: r.created_at, updatedAt: r.updated_at,
  });
  const page = createPgPager<Row>(sql, table);
  return {
    // Each variant is one statement, so of two racing creates (or a replace racing a delete) one loses cleanly.
    async put(r, only) {
      const body = cipher.seal(JSON.stringify(r.body), context(r.accountId, r.id));
      if (only === 'existing') {
        const { rowCount } = await sql.query(`UPDATE ${table} SET body = $1, updated_at = $2 WHERE account_id = $3 AND id = $4`, [body, r.updatedAt, r.accountId, r.id]);
        return rowCount > 0;
      }
      const onConflict = only === 'new' ? 'DO NOTHING' : 'DO UPDATE SET body = EXCLUDED.body, updated_at = EXCLUDED.updated_at';
      const { rowCount } = await sql.query(
        `INSERT INTO ${table} (id, account_id, body, created_at, updated_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, id) ${onConflict}`,
        [r.id, r.accountId, body, r.createdAt, r.updatedAt],
      );
      return rowCount > 0;
    },
    async get(accountId, id) {
      const row = (await sql.query<Row>(`SELECT * FROM ${table} WHERE account_id = $1 AND id = $2`, [accountId, id])).rows[0];
      return row ? toDoc(row) : undefined;
    },
    list: (accountId, limit, cursor) => page(accountId, limit, cursor, toDoc),
    async delete(accountId, id) {
      return (await sql.query(`DELETE FROM ${table} WHERE account_id = $1 AND id = $2`, [accountId, id])).rowCount > 0;
    },
  };
}
