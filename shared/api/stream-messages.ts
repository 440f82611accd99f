import { Type, type Static } from '@sinclair/typebox';

/**
 * Messages the streaming socket sends (contract "Streaming messages"). The server builds them
 * and the renderer reads them; both take their types from these schemas, so a field renamed on
 * one side fails `npm run typecheck` on the other.
 */

export const TranscriptWord = Type.Object({
  word: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  punctuated_word: Type.String(),
});
export type TranscriptWord = Static<typeof TranscriptWord>;

export const StatusMessage = Type.Object({
  type: Type.Literal('status'),
  status: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
  timestamp: Type.String({ format: 'date-time' }),
});
export type StatusMessage = Static<typeof StatusMessage>;

export const ErrorMessage = Type.Object({ type: Type.Literal('error'), error: Type.String(), timestamp: Type.String({ format: 'date-time' }) });
export type ErrorMessage = Static<typeof ErrorMessage>;

export const TranscriptMessage = Type.Object({
  type: Type.Literal('transcript'),
  audio_start: Type.Number({ description: 'Seconds from the start of the session.' }),
  audio_end: Type.Number(),
  duration: Type.Number(),
  text: Type.String({ description: 'The punctuated words joined, as batch transcription joins them.' }),
  is_final: Type.Boolean(),
  isFinal: Type.Boolean({ description: 'Deprecated alias of `is_final`, kept for older clients.' }),
  words: Type.Array(TranscriptWord),
  timestamp: Type.String({ format: 'date-time' }),
});
export type TranscriptMessage = Static<typeof TranscriptMessage>;

export const ServerMessage = Type.Union([StatusMessage, ErrorMessage, TranscriptMessage]);
/** Any message the server sends on the streaming socket. */
export type ServerMessage = Static<typeof ServerMessage>;
