import type { Db } from '../database.js';
import type { EncryptedBlobStore } from '../blob-store.js';
import { accountRowContext, rowContext, type FieldCipher } from './field-cipher.js';

/** Every encrypted column, and how its values' context is built from the row. */
interface SealedTable {
  table: string;
  columns: string[];
  context(row: Record<string, string>, column: string): string;
}

export const SEALED_TABLES: readonly SealedTable[] = [
  { table: 'notes', columns: ['request', 'markdown', 'json', 'addenda'], context: (r, c) => rowContext(`notes.${c}`, r.id!) },
  { table: 'transcriptions', columns: ['options', 'result'], context: (r, c) => rowContext(`transcriptions.${c}`, r.id!) },
  { table: 'note_templates', columns: ['body'], context: (r, c) => accountRowContext(`note_templates.${c}`, r.account_id!, r.id!) },
  { table: 'macros', columns: ['body'], context: (r, c) => accountRowContext(`macros.${c}`, r.account_id!, r.id!) },
  { table: 'voice_adaptation', columns: ['body'], context: (r, c) => accountRowContext(`voice_adaptation.${c}`, r.account_id!, r.id!) },
  { table: 'idempotency_keys', columns: ['body'], context: (r, c) => accountRowContext(`idempotency_keys.${c}`, r.account_id!, r.key!) },
  { table: 'webhooks', columns: ['secret'], context: (r, c) => rowContext(`webhooks.${c}`, r.id!) },
  { table: 'webhook_deliveries', columns: ['secret'], context: (r, c) => rowContext(`webhook_deliveries.${c}`, r.id!) },
];

export interface ReencryptReport {
  /** Column values rewritten under the active key (plaintext ones included). */
  values: number;
  /** Blob files rewritten. */
  blobs: number;
  /** Key ids still referenced after the run (only the active one when all went well). */
  keysInUse: string[];
}

/**
 * Moves every sealed value and blob that is plaintext or sealed under a retired key to the active
 * key. Each table is rewritten in one transaction; blobs are rewritten one by one through a
 * temporary file and a rename, so an interruption leaves every value readable and a second run
 * finishes the job.
 */
export async function reencryptAll(db: Db, cipher: FieldCipher, blobs: EncryptedBlobStore): Promise<ReencryptReport> {
  let values = 0;
  const inUse = new Set<string>();
  for (const spec of SEALED_TABLES) {
    const keyColumns = spec.table === 'idempotency_keys' ? ['account_id', 'key'] : ['note_templates', 'macros', 'voice_adaptation'].includes(spec.table) ? ['account_id', 'id'] : ['id'];
    const rows = db.prepare(`SELECT rowid AS rid, ${[...keyColumns, ...spec.columns].join(', ')} FROM ${spec.table}`).all() as Array<Record<string, string>>;
    db.transaction(() => {
      for (const row of rows) {
        for (const column of spec.columns) {
          const stored = row[column];
          if (stored === null || stored === undefined) continue;
          if (cipher.needsReseal(stored)) {
            const context = spec.context(row, column);
            const sealed = cipher.seal(cipher.open(stored, context), context);
            db.prepare(`UPDATE ${spec.table} SET ${column} = ? WHERE rowid = ?`).run(sealed, row.rid);
            values++;
          }
        }
      }
    })();
  }
  let rewritten = 0;
  for (const key of blobs.keys()) {
    if (blobs.keyIdOf(key) !== cipher.ring.activeKeyId) {
      await blobs.reencrypt(key);
      rewritten++;
    }
  }
  for (const id of keysReferenced(db, cipher, blobs)) inUse.add(id);
  return { values, blobs: rewritten, keysInUse: [...inUse] };
}

/** Key ids that some stored value or blob still names ('plaintext' for unsealed values). */
export function keysReferenced(db: Db, cipher: FieldCipher, blobs: EncryptedBlobStore): Set<string> {
  const ids = new Set<string>();
  for (const spec of SEALED_TABLES) {
    for (const column of spec.columns) {
      const rows = db.prepare(`SELECT ${column} AS v FROM ${spec.table} WHERE ${column} IS NOT NULL`).all() as Array<{ v: string }>;
      for (const { v } of rows) ids.add(cipher.keyIdOf(v) ?? 'plaintext');
    }
  }
  for (const key of blobs.keys()) ids.add(blobs.keyIdOf(key) ?? 'plaintext');
  return ids;
}
