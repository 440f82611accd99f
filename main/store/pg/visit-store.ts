import type { VisitContent, VisitRecord, VisitStore } from '../../services/visits/ports.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import { sealVisitContent, visitFromRow, type VisitRow } from '../rows/visits.js';
import { createPgPager } from './paging.js';
import type { Sql } from './sql.js';

/** PostgreSQL implementation of the visits port; the content is encrypted at rest. */
export function createPgVisitStore(sql: Sql, cipher: FieldCipher): VisitStore {
  const seal = (id: string, content: VisitContent): string => sealVisitContent(cipher, id, content);
  const toVisit = (r: VisitRow): VisitRecord => visitFromRow(cipher, r);
  const page = createPgPager<VisitRow>(sql, 'visits');
  return {
    async insert(v) {
      await sql.query('INSERT INTO visits (id, account_id, created_at, updated_at, version, content) VALUES ($1, $2, $3, $4, $5, $6)', [
        v.id, v.accountId, v.createdAt, v.updatedAt, v.version, seal(v.id, v.content),
      ]);
    },
    async get(accountId, id) {
      const row = (await sql.query<VisitRow>('SELECT * FROM visits WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
      return row ? toVisit(row) : undefined;
    },
    list: (accountId, limit, cursor) => page(accountId, limit, cursor, toVisit),
    // One statement: under READ COMMITTED a racing writer blocks on the row, then re-checks the
    // version against the committed row and matches nothing, so exactly one of two racers wins.
    async update(accountId, id, expected, content, updatedAt) {
      const { rowCount } = await sql.query(
        'UPDATE visits SET content = $1, updated_at = $2, version = version + 1 WHERE account_id = $3 AND id = $4 AND version = $5',
        [seal(id, content), updatedAt, accountId, id, expected],
      );
      return rowCount === 1;
    },
    async delete(accountId, id) {
      return (await sql.query('DELETE FROM visits WHERE account_id = $1 AND id = $2', [accountId, id])).rowCount > 0;
    },
  };
}
