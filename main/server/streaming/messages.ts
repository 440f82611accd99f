/**
 * Wire format of the streaming socket (contract "Streaming messages"): what the server sends and
 * how client messages are read. Pure functions; nothing here sees a socket.
 */
import type { LiveTranscript } from '../../services/live/index.js';
import type { ErrorMessage, StatusMessage, TranscriptMessage } from '../../../shared/api/stream-messages.js';

// The message shapes are declared once in shared/api, where the renderer reads them too.
export type { ErrorMessage, ServerMessage, StatusMessage, TranscriptMessage, TranscriptWord } from '../../../shared/api/stream-messages.js';

/** What a client message asks for, once parsed. */
export type ClientMessage =
  | { kind: 'audio'; bytes: Buffer }
  | { kind: 'keepalive' }
  | { kind: 'finalize' }
  | { kind: 'close' }
  | { kind: 'invalid'; error: string };

const now = (): string => new Date().toISOString();
/** Millisecond precision is what word times carry; more digits only bloat every message. */
const round = (x: number): number => Math.round(x * 1000) / 1000;

export const statusMessage = (status: 'connected' | 'disconnected'): StatusMessage => ({ type: 'status', status, timestamp: now() });
export const errorMessage = (error: string): ErrorMessage => ({ type: 'error', error, timestamp: now() });

// Strict base64 (standard or URL alphabet, optional padding); Buffer.from would silently skip junk.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes strict base64; null when the text is not base64 at all. */
export function decodeBase64(text: string): Buffer | null {
  const compact = text.replace(/\s+/g, '');
  if (BASE64.test(compact)) return Buffer.from(compact, 'base64');
  if (BASE64URL.test(compact) && compact.length % 4 !== 1) return Buffer.from(compact, 'base64url');
  return null;
}

/**
 * Reads one client frame. Binary frames are accepted as raw audio too (a convenience many
 * streaming clients expect); text frames must be the JSON messages of API-DECISIONS.
 */
export function parseClientMessage(data: Buffer, isBinary: boolean): ClientMessage {
  if (isBinary) return { kind: 'audio', bytes: data };
  let body: unknown;
  try {
    body = JSON.parse(data.toString('utf8'));
  } catch {
    return { kind: 'invalid', error: 'message is not valid JSON' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'invalid', error: 'message must be a JSON object' };
  }
  const msg = body as Record<string, unknown>;
  if (typeof msg.type === 'string') {
    switch (msg.type) {
      case 'KeepAlive': return { kind: 'keepalive' };
      case 'Finalize': return { kind: 'finalize' };
      case 'CloseStream': return { kind: 'close' };
      default:
        if (msg.audio === undefined) return { kind: 'invalid', error: 'type must be KeepAlive, Finalize or CloseStream' };
    }
  }
  if (msg.audio === undefined) return { kind: 'invalid', error: 'message has no audio field' };
  if (typeof msg.audio !== 'string') return { kind: 'invalid', error: 'audio must be a base64 string' };
  const bytes = decodeBase64(msg.audio);
  if (!bytes) return { kind: 'invalid', error: 'audio is not valid base64' };
  if (bytes.length === 0) return { kind: 'invalid', error: 'audio is empty' };
  return { kind: 'audio', bytes };
}

/**
 * The wire form of a live transcript. `text` is the punctuated words joined (with dictation the
 * same formatting as batch), so what a client shows matches `words`.
 */
export function transcriptMessage(transcript: LiveTranscript): TranscriptMessage {
  const out = transcript.words.map((w) => ({
    word: w.word,
    start: round(w.start),
    end: round(w.end),
    confidence: round(Math.min(1, Math.max(0, w.confidence))),
    punctuated_word: w.punctuated_word,
  }));
  const start = round(transcript.start);
  const end = round(transcript.end);
  return {
    type: 'transcript',
    audio_start: start,
    audio_end: end,
    duration: round(end - start),
    text: transcript.text,
    is_final: transcript.isFinal,
    isFinal: transcript.isFinal,
    words: out,
    timestamp: now(),
  };
}
