import type { Db } from './database.js';
import type { VisitContent, VisitRecord, VisitStore } from '../services/visits/ports.js';
import { createPager } from './paging.js';
import type { FieldCipher } from './crypto/field-cipher.js';
import { sealVisitContent, visitFromRow, type VisitRow } from './rows/visits.js';

/** SQLite implementation of the visits port; the content is encrypted at rest. */
export function createVisitStore(db: Db, cipher: FieldCipher): VisitStore {
  const seal = (id: string, content: VisitContent): string => sealVisitContent(cipher, id, content);
  const toVisit = (r: VisitRow): VisitRecord => visitFromRow(cipher, r);
  const insert = db.prepare('INSERT INTO visits (id, account_id, created_at, updated_at, version, content) VALUES (?,?,?,?,?,?)');
  const get = db.prepare('SELECT * FROM visits WHERE account_id = ? AND id = ?');
  const update = db.prepare('UPDATE visits SET content = ?, updated_at = ?, version = version + 1 WHERE account_id = ? AND id = ? AND version = ?');
  const del = db.prepare('DELETE FROM visits WHERE account_id = ? AND id = ?');
  const page = createPager<VisitRow>(db, 'visits');
  return {
    insert: async (v) => void insert.run(v.id, v.accountId, v.createdAt, v.updatedAt, v.version, seal(v.id, v.content)),
    async get(accountId, id) {
      const row = get.get(accountId, id) as VisitRow | undefined;
      return row ? toVisit(row) : undefined;
    },
    list: async (accountId, limit, cursor) => page(accountId, limit, cursor, toVisit),
    update: async (accountId, id, expected, content, updatedAt) => update.run(seal(id, content), updatedAt, accountId, id, expected).changes === 1,
    delete: async (accountId, id) => del.run(accountId, id).changes > 0,
  };
}
