/**
 * A live session's decoder, opened on the first audio chunk and opened afresh after a decoding
 * error (a stream that begins again with a header recovers). Without an `encoding` the first chunk
 * of each decoder must carry a container header. What the decoder emits goes to `onPcm` only
 * while it is the session's current decoder.
 */
import type { StreamDecoder } from '../../services/live/index.js';
import { sniffContainer } from './containers.js';

export interface SessionAudioDeps {
  createDecoder: () => StreamDecoder;
  /** True when no `encoding` was given: each decoder's first chunk must carry a container header. */
  container: boolean;
  onPcm(pcm: Int16Array): void;
  /** A chunk could not be decoded: the client gets this text as an `error` message. */
  onError(text: string): void;
}

export interface SessionAudio {
  /** Hands one encoded chunk to the decoder (opening one first when there is none). */
  write(bytes: Buffer): void;
  /** An external decoder holds a little audio: resolves once it has handed over what it was given. */
  settle(): Promise<void>;
  /** Flushes the decoder's audio into `onPcm`, then releases it. */
  end(): Promise<void>;
  /** Releases at once; later output is ignored. */
  close(): void;
  /** Encoded bytes the decoder has accepted and not yet consumed. */
  backlogBytes(): number;
}

/** How long `settle` waits at most, and the quiet after the last PCM that counts as handed over, ms. */
const SETTLE_MAX_MS = 600;
const SETTLE_QUIET_MS = 80;

export function createSessionAudio(deps: SessionAudioDeps): SessionAudio {
  let decoder: StreamDecoder | undefined;
  let lastPcmAt = 0;
  let closed = false;

  const open = (): StreamDecoder => {
    const d = deps.createDecoder();
    d.on('pcm', (pcm) => {
      if (closed || d !== decoder) return;
      lastPcmAt = Date.now();
      deps.onPcm(pcm);
    });
    d.on('error', (err) => {
      if (closed || d !== decoder) return;
      // The next chunk starts a fresh decoder.
      d.close();
      decoder = undefined;
      deps.onError(err.message);
    });
    return d;
  };

  return {
    write(bytes) {
      if (closed) return;
      if (!decoder && deps.container && !sniffContainer(bytes)) {
        deps.onError('audio chunk could not be decoded: without encoding the stream must start with a WAV, WebM, Ogg, FLAC, MP3, MP4 or AMR header');
        return;
      }
      decoder ??= open();
      try {
        decoder.write(bytes);
      } catch (err) {
        deps.onError(err instanceof Error ? err.message : 'audio chunk could not be decoded');
      }
    },
    async settle() {
      const d = decoder;
      if (!d || d.pid === undefined) return;
      const started = Date.now();
      while (!closed && d === decoder && Date.now() - started < SETTLE_MAX_MS) {
        if (d.backlogBytes() === 0 && Date.now() - lastPcmAt >= SETTLE_QUIET_MS) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async end() {
      const d = decoder;
      if (d) await d.end();
    },
    close() {
      closed = true;
      decoder?.close();
      decoder = undefined;
    },
    backlogBytes: () => decoder?.backlogBytes() ?? 0,
  };
}
