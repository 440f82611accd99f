import type { NoteRecord } from '../../services/storage.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';

/** A row of the notes table as both databases return it (SQLite and PostgreSQL stores share this shape). */
export interface NoteRow {
  id: string; account_id: string; status: NoteRecord['status']; request: string; markdown: string | null;
  json: string | null; error: string | null; created_at: number; started_at: number | null; completed_at: number | null;
  version: number; signed_at: number | null; signed_by: string | null; addenda: string | null;
  engine: string | null; engine_model: string | null;
  /** JSON of generatedBy.fallbackFrom (engine names and why; no patient data). */
  engine_fallback?: string | null;
}

/** Patient data columns, sealed with AES-256-GCM; the row id is part of each value's context, the same on both databases. */
export const NOTE_SEALED = { request: 'notes.request', markdown: 'notes.markdown', json: 'notes.json', addenda: 'notes.addenda' } as const;

/** Record field to column, for the fields an update may change (the engine is handled apart). */
export const NOTE_COLUMNS: Record<string, string> = {
  status: 'status', markdown: 'markdown', json: 'json', error: 'error', startedAt: 'started_at', completedAt: 'completed_at',
  version: 'version', signedAt: 'signed_at', signedBy: 'signed_by', addenda: 'addenda',
};

/** Seals one patient data column of note `id`; null stays null. */
export function sealNoteColumn(cipher: FieldCipher, column: keyof typeof NOTE_SEALED, id: string, text: string | null): string | null {
  return text === null ? null : cipher.seal(text, rowContext(NOTE_SEALED[column], id));
}

/** The note a row holds, its sealed columns opened. */
export function noteFromRow(cipher: FieldCipher, r: NoteRow): NoteRecord {
  // The request (it holds the whole transcript, the largest value) is opened only when read:
  // answering GET /v1/notes/{id} never needs it (issue 19). Opening it still fails loudly if tampered.
  let request: { value: unknown } | undefined;
  return {
    id: r.id,
    accountId: r.account_id,
    status: r.status,
    get request(): unknown {
      request ??= { value: JSON.parse(cipher.open(r.request, rowContext(NOTE_SEALED.request, r.id))) as unknown };
      return request.value;
    },
    markdown: r.markdown === null ? null : cipher.open(r.markdown, rowContext(NOTE_SEALED.markdown, r.id)),
    json: r.json === null ? null : (JSON.parse(cipher.open(r.json, rowContext(NOTE_SEALED.json, r.id))) as Record<string, unknown>),
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    version: r.version,
    signedAt: r.signed_at,
    signedBy: r.signed_by,
    addenda: r.addenda === null ? [] : (JSON.parse(cipher.open(r.addenda, rowContext(NOTE_SEALED.addenda, r.id))) as NoteRecord['addenda']),
    // Engine names are configuration, not patient data: kept in clear.
    ...(r.engine ? { generatedBy: { engine: r.engine, ...(r.engine_model ? { model: r.engine_model } : {}), ...(r.engine_fallback ? { fallbackFrom: JSON.parse(r.engine_fallback) as { engine: string; reason: string } } : {}) } } : {}),
  };
}
