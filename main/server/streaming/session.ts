/**
 * One live transcription session on a socket: client messages in, decoded audio through the
 * session's rules (main/services/live: segments, partials and finals, back-pressure), transcript
 * messages out. The socket, decoder, recogniser stream and endpointer come in as dependencies, so
 * the session can be exercised without a network.
 *
 * Protocol (documented in docs/streaming.md):
 * - messages are handled strictly in arrival order; audio is decoded as it comes;
 * - `Finalize` asks for a final even without words, `CloseStream` for one when words were heard,
 *   then `disconnected` and close 1000; a server-side close does the same with its own code;
 * - back-pressure pauses and resumes reading the socket; a dropped chunk gets an `error` message;
 * - no audio and no KeepAlive for `idleTimeoutSeconds` (audio still being worked through is not
 *   idleness), or `maxSessionSeconds` of audio, ends the session.
 */
import type { Logger } from 'pino';
import { acceptsChunk, createRecognitionQueue, DEFAULT_SESSION_TUNING, readingPaused, type SessionTuning } from '../../services/live/index.js';
import type { Endpointer, SpeechStream } from '../../services/transcriptions/ports.js';
import { errorMessage, parseClientMessage, statusMessage, transcriptMessage, type ClientMessage, type ServerMessage } from './messages.js';
import { sniffContainer } from './containers.js';
import type { StreamingLimits } from './limits.js';

export type { SessionTuning } from '../../services/live/index.js';

/** The socket as a session sees it. */
export interface SessionSocket {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
  /** Stop / restart reading from the network (back-pressure). */
  pause(): void;
  resume(): void;
}

/** Streaming decoder shape (`createStreamDecoder` of the audio engines). */
export interface ChunkDecoder {
  write(chunk: Buffer): void;
  on(event: 'pcm', listener: (pcm: Int16Array) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  end(): Promise<void>;
  close(): void;
  backlogBytes(): number;
  /** Set while an external decoder process runs. */
  readonly pid: number | undefined;
}

export interface SessionDeps {
  socket: SessionSocket;
  createDecoder: () => ChunkDecoder;
  stream: SpeechStream;
  endpointer: Endpointer;
  /** Endpointer used if the primary one fails at run time. */
  fallbackEndpointer: () => Endpointer;
  limits: StreamingLimits;
  dictation: boolean;
  /** True when no `encoding` was given: each decoder's first chunk must carry a container header. */
  container: boolean;
  /** Rate of the PCM the decoder emits and the recogniser takes. */
  sampleRate: number;
  logger: Logger;
  tuning?: Partial<SessionTuning>;
  /** Called once when the session has released everything. */
  onEnd(): void;
}

export interface SessionStats {
  audioSeconds: number;
  queuedSeconds: number;
  pendingBytes: number;
  /** Highest `queuedSeconds` seen, for the back-pressure guarantee. */
  peakQueuedSeconds: number;
  paused: boolean;
  partials: number;
  finals: number;
  errors: number;
  droppedChunks: number;
}

export interface StreamSession {
  /** Hands in one WebSocket frame. */
  receive(data: Buffer, isBinary: boolean): void;
  /** The client's socket closed: release without sending. */
  socketClosed(): void;
  /**
   * Server-side end: audio not yet recognised is dropped, then a final for what was heard,
   * `disconnected`, close. Resolves once the session has released everything.
   */
  shutdown(code: number, reason: string, error?: string): Promise<void>;
  stats(): SessionStats;
  readonly ended: boolean;
}

/** Starts a session; the caller has already sent `connected`. */
export function createStreamSession(deps: SessionDeps): StreamSession {
  const { socket, stream, limits, sampleRate, logger } = deps;
  const tuning: SessionTuning = { ...DEFAULT_SESSION_TUNING, ...deps.tuning };

  let decoder: ChunkDecoder | undefined;
  let lastPcmAt = 0;
  const inbox: ClientMessage[] = [];
  let pendingBytes = 0; // audio bytes in the inbox
  let draining = false;
  let released = false;
  let closing = false;
  let ending: Promise<void> | undefined;
  let paused = false;
  const stats = { errors: 0, droppedChunks: 0, peakQueuedSeconds: 0 };
  let idleTimer: NodeJS.Timeout | undefined;

  const send = (m: ServerMessage): void => {
    if (!released) socket.send(m);
  };
  const sendError = (text: string): void => {
    stats.errors++;
    send(errorMessage(text));
  };
  const recognition = createRecognitionQueue({
    stream, endpointer: deps.endpointer, fallbackEndpointer: deps.fallbackEndpointer, sampleRate,
    dictation: deps.dictation, tuning, emit: (transcript) => send(transcriptMessage(transcript)),
    onEndpointerFailure(err) {
      logger.warn({ err: (err as Error).name }, 'voice activity detector failed; energy endpointing for this session');
    },
    afterChunk() {
      updatePressure();
      if (recognition.fedSamples / sampleRate >= limits.maxSessionSeconds) {
        void shutdown(1008, 'session too long', `session reached its maximum of ${limits.maxSessionSeconds} s of audio: session closed`);
      }
    },
    onFailure(err) {
      logger.error({ err: (err as Error).name }, 'speech recognition failed in a streaming session');
      void shutdown(1011, 'recognition failed', 'speech recognition failed: session closed');
    },
  });
  const queuedSeconds = (): number => recognition.queuedSamples / sampleRate;
  const backlog = (): number => pendingBytes + (decoder?.backlogBytes() ?? 0);

  const touch = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      // Audio still being worked through is not idleness: the clock restarts when it is done.
      if (recognition.busy || draining) return touch();
      void shutdown(1008, 'idle timeout', `no audio or KeepAlive for ${limits.idleTimeoutSeconds} s: session closed`);
    }, limits.idleTimeoutSeconds * 1000);
    idleTimer.unref();
  };

  const updatePressure = (): void => {
    const q = queuedSeconds();
    if (q > stats.peakQueuedSeconds) stats.peakQueuedSeconds = q;
    const next = readingPaused(paused, { queuedSeconds: q, pendingBytes: backlog() }, limits);
    if (next === paused) return;
    paused = next;
    if (paused) socket.pause();
    else socket.resume();
  };

  const release = (): void => {
    if (released) return;
    released = true;
    clearTimeout(idleTimer);
    decoder?.close();
    decoder = undefined;
    recognition.stop();
    // A recogniser call still running keeps its decoder until it returns (the stream sees to it).
    stream.close();
    inbox.length = 0;
    pendingBytes = 0;
    const audioSeconds = Math.round((recognition.fedSamples / sampleRate) * 10) / 10;
    logger.info({ audioSeconds, partials: recognition.partials, finals: recognition.finals, errors: stats.errors, dropped: stats.droppedChunks }, 'streaming session ended');
    deps.onEnd();
  };

  const openDecoder = (): ChunkDecoder => {
    const d = deps.createDecoder();
    d.on('pcm', (pcm) => {
      if (released || d !== decoder) return;
      lastPcmAt = Date.now();
      recognition.pushAudio(pcm);
      updatePressure();
    });
    d.on('error', (err) => {
      if (released || d !== decoder) return;
      // The next chunk starts a fresh decoder: a stream that begins again with a header recovers.
      d.close();
      decoder = undefined;
      sendError(err.message);
    });
    return d;
  };

  const writeAudio = (bytes: Buffer): void => {
    if (!decoder && deps.container && !sniffContainer(bytes)) {
      sendError('audio chunk could not be decoded: without encoding the stream must start with a WAV, WebM, Ogg, FLAC, MP3, MP4 or AMR header');
      return;
    }
    decoder ??= openDecoder();
    try {
      decoder.write(bytes);
    } catch (err) {
      sendError(err instanceof Error ? err.message : 'audio chunk could not be decoded');
    }
  };

  /** An external decoder holds a little audio: wait until it has handed over what it was given. */
  const settleDecoder = async (): Promise<void> => {
    const d = decoder;
    if (!d || d.pid === undefined) return;
    const started = Date.now();
    while (!released && d === decoder && Date.now() - started < 600) {
      if (d.backlogBytes() === 0 && Date.now() - lastPcmAt >= 80) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  const closeStream = async (): Promise<void> => {
    closing = true;
    const d = decoder;
    if (d) await d.end();
    // Finalize answers with a final even when nothing was said; at the end only words matter.
    await recognition.finalize(false);
    if (released) return;
    send(statusMessage('disconnected'));
    socket.close(1000, 'CloseStream');
    release();
  };

  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    try {
      while (inbox.length > 0 && !released) {
        const m = inbox.shift()!;
        if (m.kind === 'audio') {
          pendingBytes -= m.bytes.length;
          writeAudio(m.bytes);
        } else if (m.kind === 'finalize') {
          await settleDecoder();
          await recognition.finalize(true);
        } else if (m.kind === 'close') {
          await closeStream();
        }
        updatePressure();
      }
    } catch (err) {
      logger.error({ err: (err as Error).name }, 'streaming session failed');
      void shutdown(1011, 'internal error', 'the session failed: session closed');
    } finally {
      draining = false;
    }
  };

  function shutdown(code: number, reason: string, error?: string): Promise<void> {
    if (released) return Promise.resolve();
    if (ending) return ending;
    closing = true;
    clearTimeout(idleTimer);
    // The session ends now: audio not yet recognised is dropped, what was heard gets its final.
    inbox.length = 0;
    pendingBytes = 0;
    decoder?.close();
    decoder = undefined;
    recognition.dropAudio();
    if (paused) {
      // Read again so the client's close frame is seen; its audio frames are ignored from here.
      paused = false;
      socket.resume();
    }
    ending = (async () => {
      try {
        await recognition.finalize(false);
      } catch {
        // the recogniser is already broken; the client still gets its disconnect
      }
      if (released) return;
      if (error) sendError(error);
      send(statusMessage('disconnected'));
      socket.close(code, reason);
      release();
    })();
    return ending;
  }

  touch();
  return {
    receive(data, isBinary) {
      if (released || closing) return;
      if (data.length > limits.maxMessageBytes) {
        sendError(`message of ${data.length} bytes exceeds the limit of ${limits.maxMessageBytes} bytes: dropped`);
        return;
      }
      const msg = parseClientMessage(data, isBinary);
      if (msg.kind === 'invalid') {
        sendError(msg.error);
        return;
      }
      touch();
      if (msg.kind === 'keepalive') return;
      if (msg.kind === 'audio') {
        if (!acceptsChunk({ queuedSeconds: queuedSeconds(), pendingBytes: backlog() }, msg.bytes.length, limits)) {
          stats.droppedChunks++;
          sendError('audio is arriving faster than it can be transcribed: chunk dropped');
          return;
        }
        pendingBytes += msg.bytes.length;
      }
      if (msg.kind === 'close') closing = true;
      inbox.push(msg);
      updatePressure();
      void drain();
    },
    socketClosed: release,
    shutdown,
    stats: () => ({
      audioSeconds: recognition.fedSamples / sampleRate,
      queuedSeconds: queuedSeconds(),
      pendingBytes: backlog(),
      peakQueuedSeconds: stats.peakQueuedSeconds,
      paused,
      partials: recognition.partials,
      finals: recognition.finals,
      errors: stats.errors,
      droppedChunks: stats.droppedChunks,
    }),
    get ended() {
      return released;
    },
  };
}
