/**
 * The port a live session decodes its audio through. Implemented by the audio engines
 * (`createStreamDecoder` in main/engines/audio/stream-decoder.ts: PCM, A-law and mu-law in
 * process, everything else through one ffmpeg per session); the composition hands a factory to
 * the streaming socket, which opens one decoder per session (a fresh one after a decoding error).
 */
import type { DomainError } from '../errors.js';

export interface StreamDecoder {
  /** Feeds encoded bytes. Errors arrive through the `error` listener; the session can go on. */
  write(chunk: Buffer): void;
  on(event: 'pcm', listener: (pcm: Int16Array) => void): void;
  on(event: 'error', listener: (err: DomainError) => void): void;
  /** Flushes everything written so far into `pcm` events, then releases the decoder. */
  end(): Promise<void>;
  /** Releases at once (kills ffmpeg); safe to call twice. */
  close(): void;
  /** Encoded bytes accepted but not yet consumed by the decoder (for back-pressure). */
  backlogBytes(): number;
  /** The external decoder's process id while one runs (tests check it is gone after close). */
  readonly pid: number | undefined;
}

/** What a session's decoder is opened with: the client's `encoding` (absent for containers), rate and channels. */
export interface StreamDecoderParams {
  encoding?: string;
  sampleRate: number;
  channels: number;
}

export type StreamDecoderFactory = (params: StreamDecoderParams) => StreamDecoder;
