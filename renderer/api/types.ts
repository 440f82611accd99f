/**
 * Wire types of the local Clinical Documentation API as the renderer uses them (contract
 * "Resources and their fields" plus the OpenAPI extensions). Kept here, not imported from main/,
 * because the renderer reaches main only through HTTP.
 */
import type { NoteTemplate } from '../../shared/note-template.js';
import type { NoteLanguage } from '../../shared/languages.js';

export interface Connection {
  /** '' means the page's own origin (the interface served by the local API). */
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

export interface Page<T> { items: T[]; nextCursor: string | null }

export type NoteStatus = 'STATUS_PENDING' | 'STATUS_PROCESSING' | 'STATUS_DONE' | 'STATUS_FAILED';

export interface NoteView {
  id: string;
  status: NoteStatus;
  payload?: { markdown: string; json?: Record<string, unknown> };
  timestamp: { start: number; complete?: number };
  error?: { message: string };
}

export type NoteKind = 'soap' | 'note_style' | 'note_template';

export interface CreateNoteRequest {
  transcript: string;
  noteType?: { type?: NoteKind; description?: string; template?: string; includeJson?: boolean; noteTemplate?: NoteTemplate; templateId?: string };
  date?: string;
  language?: NoteLanguage;
  patientInfo?: { name?: string; dateOfBirth?: string };
  previousNote?: string;
  context?: string;
  instructions?: string[];
  medicationList?: string;
}

export interface MacroDefinition { id: string; examples: string[]; expansion_text: string }

export interface MacroDetection {
  macro_id: string;
  text_span: { start_char: number; end_char: number; text: string };
  confidence: number;
}
export interface MacroResult { detections: MacroDetection[]; expanded_text: string }

export interface StreamToken { token: string; expiresAt: string }

export type TranscriptionStatus = 'pending' | 'processing' | 'completed' | 'failed';
export interface TranscriptionRecord {
  id: string;
  status: TranscriptionStatus;
  language: string;
  duration: number | null;
  text: string | null;
  confidence: number | null;
  speakers: number | null;
  utterances: { speaker: number | null; start: number; end: number; text: string; confidence: number }[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  error: string | null;
}

export const WEBHOOK_EVENTS = ['audio_transcription.succeeded', 'audio_transcription.failed', 'note_generation.succeeded', 'note_generation.failed'] as const;
export interface WebhookView { id: string; url: string; events: string[]; created_at: string; secret?: string }

/** Messages of the streaming socket (contract "Streaming messages"). */
export interface TranscriptWord { word: string; start: number; end: number; confidence: number; punctuated_word: string }
export type StreamMessage =
  | { type: 'status'; status: 'connected' | 'disconnected'; timestamp: string }
  | { type: 'error'; error: string; timestamp: string }
  | { type: 'transcript'; audio_start: number; audio_end: number; duration: number; text: string; is_final: boolean; words: TranscriptWord[]; timestamp: string };

/** Count and bytes of one kind of stored object (`GET /v1/storage`). */
export interface KindUsage { count: number; bytes: number }
export interface StorageReport {
  notes: KindUsage; transcriptions: KindUsage; audio: KindUsage; templates: KindUsage; macros: KindUsage; webhooks: KindUsage;
  totalBytes: number;
}
export interface DeletedCounts { notes: number; transcriptions: number; templates: number; macros: number; webhooks: number }

/** The account's default speech recogniser (`/v1/settings/engines`). */
export interface EngineSettings { asrEngine: string; source: 'account' | 'default'; available: string[] }
