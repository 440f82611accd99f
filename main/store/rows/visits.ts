import type { VisitContent, VisitRecord } from '../../services/visits/ports.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';

/** A row of the visits table as both databases return it. */
export interface VisitRow { id: string; account_id: string; created_at: number; updated_at: number; version: number; content: string }

// The whole content (patient, dictation, transcript, links) is one sealed value; only times and
// the version stay in the clear, for ordering and the conditional write.
const SEALED = 'visits.content';

/** Seals the content of visit `id`. */
export function sealVisitContent(cipher: FieldCipher, id: string, content: VisitContent): string {
  return cipher.seal(JSON.stringify(content), rowContext(SEALED, id));
}

/** The visit a row holds, its content opened. */
export function visitFromRow(cipher: FieldCipher, r: VisitRow): VisitRecord {
  return {
    id: r.id, accountId: r.account_id, createdAt: r.created_at, updatedAt: r.updated_at, version: r.version,
    content: JSON.parse(cipher.open(r.content, rowContext(SEALED, r.id))) as VisitContent,
  };
}
