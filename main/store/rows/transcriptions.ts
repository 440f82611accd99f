import type { TranscriptionRecord } from '../../services/storage.js';
import { rowContext, type FieldCipher } from '../crypto/field-cipher.js';

/** A row of the transcriptions table as both databases return it. */
export interface TranscriptionRow {
  id: string; account_id: string; status: TranscriptionRecord['status']; options: string; audio_blob: string | null;
  audio_type: string | null; result: string | null; error: string | null; created_at: number; updated_at: number;
  started_at: number | null; completed_at: number | null;
}

/** Record field to column, for the fields an update may change. */
export const TRANSCRIPTION_COLUMNS: Record<string, string> = {
  status: 'status', options: 'options', audioBlob: 'audio_blob', audioType: 'audio_type', result: 'result', error: 'error',
  updatedAt: 'updated_at', startedAt: 'started_at', completedAt: 'completed_at',
};

/** Fields stored as sealed JSON (patient data). */
export const TRANSCRIPTION_JSON_FIELDS = new Set(['options', 'result']);

/** Seals `value` (as JSON) for field `options` or `result` of transcription `id`. */
export function sealTranscriptionField(cipher: FieldCipher, field: string, id: string, value: unknown): string {
  return cipher.seal(JSON.stringify(value), rowContext(`transcriptions.${field}`, id));
}

/** The transcription a row holds, options and result opened. */
export function transcriptionFromRow(cipher: FieldCipher, r: TranscriptionRow): TranscriptionRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    status: r.status,
    options: JSON.parse(cipher.open(r.options, rowContext('transcriptions.options', r.id))) as Record<string, unknown>,
    audioBlob: r.audio_blob,
    audioType: r.audio_type,
    result: r.result === null ? null : (JSON.parse(cipher.open(r.result, rowContext('transcriptions.result', r.id))) as Record<string, unknown>),
    error: r.error,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
  };
}
