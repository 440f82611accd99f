/**
 * Wire types of the local Clinical Documentation API as the renderer uses them. Every one is
 * derived from the schemas the server validates with (shared/api), imported as types only so no
 * schema code reaches the bundle; only `Connection`, which never crosses the wire, is declared here.
 */
import type { TranscriptionV2View } from '../../shared/api/schemas.js';
import type { ServerMessage } from '../../shared/api/stream-messages.js';

export type {
  CreateNoteBody as CreateNoteRequest, DeletedCounts, EngineSettings, KindUsage, MacroDefinition, MacroDetection, MacroResult, NoteKind,
  NoteStatus, NoteView, Page, MacroSkip, StorageReport, StreamToken, TranscriptionStatus, WebhookView,
} from '../../shared/api/schemas.js';
export type { TranscriptWord } from '../../shared/api/stream-messages.js';
export { WEBHOOK_EVENTS, type WebhookEvent } from '../../shared/api/webhook-events.js';

export interface Connection {
  /** '' means the page's own origin (the interface served by the local API). */
  baseUrl: string;
  accountId: string;
  apiKey: string;
  /** A clinic server chosen in Settings rather than this computer's local API (wording of errors). */
  clinic?: boolean;
}

/** A transcription as `GET /v2/audio/transcriptions/:id` returns it. */
export type TranscriptionRecord = TranscriptionV2View;

/** Messages of the streaming socket (contract "Streaming messages"). */
export type StreamMessage = ServerMessage;
