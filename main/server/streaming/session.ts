/**
 * One live transcription session on a socket: client messages in, decoded audio through the
 * session's rules (main/services/live: its one queue, segments, partials and finals,
 * back-pressure), transcript messages out. The socket, decoder, recogniser stream and endpointer
 * come in as dependencies, so the session can be exercised without a network.
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
import {
  acceptsChunk, createSessionQueue, DEFAULT_SESSION_TUNING, readingPaused, type SessionQueue, type SessionTuning, type StreamDecoder,
} from '../../services/live/index.js';
import type { Endpointer, SpeechStream } from '../../services/transcriptions/ports.js';
import { errorMessage, parseClientMessage, statusMessage, transcriptMessage, type ServerMessage } from './messages.js';
import type { StreamingLimits } from './limits.js';
import { createSessionAudio } from './session-audio.js';

export type { SessionTuning } from '../../services/live/index.js';

/** The socket as a session sees it. */
export interface SessionSocket {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
  /** Stop / restart reading from the network (back-pressure). */
  pause(): void;
  resume(): void;
}

export interface SessionDeps {
  socket: SessionSocket;
  createDecoder: () => StreamDecoder;
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

/** Pausing and resuming the socket's reading as the session's backlog grows and shrinks (flow-control.ts). */
function createPressure(socket: SessionSocket, limits: StreamingLimits, backlog: () => { queuedSeconds: number; pendingBytes: number }) {
  const state = { paused: false, peakQueuedSeconds: 0 };
  return {
    state,
    update(): void {
      const now = backlog();
      if (now.queuedSeconds > state.peakQueuedSeconds) state.peakQueuedSeconds = now.queuedSeconds;
      const next = readingPaused(state.paused, now, limits);
      if (next === state.paused) return;
      state.paused = next;
      if (next) socket.pause();
      else socket.resume();
    },
    /** Reads again whatever the backlog (a session that is ending must see the client's close frame). */
    release(): void {
      if (!state.paused) return;
      state.paused = false;
      socket.resume();
    },
  };
}

/** Ends the session after `seconds` without audio or KeepAlive; while `busy`, the clock restarts instead. */
function createIdleTimer(seconds: number, busy: () => boolean, onIdle: () => void) {
  let timer: NodeJS.Timeout | undefined;
  const touch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => (busy() ? touch() : onIdle()), seconds * 1000);
    timer.unref();
  };
  return { touch, stop: () => clearTimeout(timer) };
}

/** What the session counts for its stats and its end-of-session log line. */
function statsOf(queue: SessionQueue, pressure: ReturnType<typeof createPressure>, counts: { errors: number; droppedChunks: number }, backlogBytes: number, sampleRate: number): SessionStats {
  return {
    audioSeconds: queue.fedSamples / sampleRate,
    queuedSeconds: queue.queuedSamples / sampleRate,
    pendingBytes: backlogBytes,
    peakQueuedSeconds: pressure.state.peakQueuedSeconds,
    paused: pressure.state.paused,
    partials: queue.partials,
    finals: queue.finals,
    errors: counts.errors,
    droppedChunks: counts.droppedChunks,
  };
}

/** The session's one queue (main/services/live), wired to its socket, decoder and logger. */
function queueFor(deps: SessionDeps, hooks: {
  send(m: ServerMessage): void;
  decode(bytes: Buffer): void;
  failed(err: unknown): void;
  shutdown(code: number, reason: string, error: string): Promise<void>;
  afterChunk(): void;
}): SessionQueue {
  const { logger } = deps;
  return createSessionQueue({
    stream: deps.stream, endpointer: deps.endpointer, fallbackEndpointer: deps.fallbackEndpointer, sampleRate: deps.sampleRate,
    dictation: deps.dictation, tuning: { ...DEFAULT_SESSION_TUNING, ...deps.tuning },
    emit: (transcript) => hooks.send(transcriptMessage(transcript)),
    decode(bytes) {
      try {
        hooks.decode(bytes);
      } catch (err) {
        hooks.failed(err);
      }
    },
    onEndpointerFailure(err) {
      logger.warn({ err: (err as Error).name }, 'voice activity detector failed; energy endpointing for this session');
    },
    afterChunk: hooks.afterChunk,
    onFailure(err) {
      logger.error({ err: (err as Error).name }, 'speech recognition failed in a streaming session');
      void hooks.shutdown(1011, 'recognition failed', 'speech recognition failed: session closed');
    },
  });
}

/** Starts a session; the caller has already sent `connected`. */
export function createStreamSession(deps: SessionDeps): StreamSession {
  const { socket, stream, limits, sampleRate, logger } = deps;
  let released = false;
  let closing = false;
  let ending: Promise<void> | undefined;
  const counts = { errors: 0, droppedChunks: 0 };
  const send = (m: ServerMessage): void => {
    if (!released) socket.send(m);
  };
  const sendError = (text: string): void => {
    counts.errors++;
    send(errorMessage(text));
  };
  const failed = (err: unknown): void => {
    logger.error({ err: (err as Error).name }, 'streaming session failed');
    void shutdown(1011, 'internal error', 'the session failed: session closed');
  };
  const audio = createSessionAudio({
    createDecoder: deps.createDecoder, container: deps.container, onError: sendError,
    onPcm(pcm) {
      queue.pushAudio(pcm);
      pressure.update();
    },
  });
  const queue: SessionQueue = queueFor(deps, {
    send, decode: audio.write, failed, shutdown,
    afterChunk() {
      pressure.update();
      if (queue.fedSamples / sampleRate >= limits.maxSessionSeconds) {
        void shutdown(1008, 'session too long', `session reached its maximum of ${limits.maxSessionSeconds} s of audio: session closed`);
      }
    },
  });
  const backlog = () => ({ queuedSeconds: queue.queuedSamples / sampleRate, pendingBytes: queue.pendingBytes + audio.backlogBytes() });
  const pressure = createPressure(socket, limits, backlog);
  const idle = createIdleTimer(limits.idleTimeoutSeconds, () => queue.busy, () => {
    void shutdown(1008, 'idle timeout', `no audio or KeepAlive for ${limits.idleTimeoutSeconds} s: session closed`);
  });

  const release = (): void => {
    if (released) return;
    released = true;
    idle.stop();
    audio.close();
    queue.stop();
    // A recogniser call still running keeps its decoder until it returns (the stream sees to it).
    stream.close();
    const audioSeconds = Math.round((queue.fedSamples / sampleRate) * 10) / 10;
    logger.info({ audioSeconds, partials: queue.partials, finals: queue.finals, errors: counts.errors, dropped: counts.droppedChunks }, 'streaming session ended');
    deps.onEnd();
  };
  const disconnect = (code: number, reason: string, error?: string): void => {
    if (released) return;
    if (error) sendError(error);
    send(statusMessage('disconnected'));
    socket.close(code, reason);
    release();
  };

  function shutdown(code: number, reason: string, error?: string): Promise<void> {
    if (released) return Promise.resolve();
    if (ending) return ending;
    closing = true;
    idle.stop();
    // The session ends now: audio not yet recognised is dropped, what was heard gets its final.
    audio.close();
    queue.drop();
    // Read again so the client's close frame is seen; its audio frames are ignored from here.
    pressure.release();
    ending = queue.finalize(false).then(
      () => disconnect(code, reason, error),
      // the recogniser is already broken; the client still gets its disconnect
      () => disconnect(code, reason, error),
    );
    return ending;
  }

  /** One client message that passed the size check, in arrival order. */
  const take = (data: Buffer, isBinary: boolean): void => {
    const msg = parseClientMessage(data, isBinary);
    if (msg.kind === 'invalid') return sendError(msg.error);
    idle.touch();
    if (msg.kind === 'keepalive') return;
    if (msg.kind === 'audio') {
      if (!acceptsChunk(backlog(), msg.bytes.length, limits)) {
        counts.droppedChunks++;
        return sendError('audio is arriving faster than it can be transcribed: chunk dropped');
      }
      queue.pushEncoded(msg.bytes);
    } else if (msg.kind === 'finalize') {
      queue.finalize(true, audio.settle).then(pressure.update, failed);
    } else if (msg.kind === 'close') {
      closing = true;
      // Finalize answers with a final even when nothing was said; at the end only words matter.
      queue.finalize(false, audio.end).then((ran) => ran && disconnect(1000, 'CloseStream'), failed);
    }
    pressure.update();
  };

  idle.touch();
  return {
    receive(data, isBinary) {
      if (released || closing) return;
      if (data.length > limits.maxMessageBytes) {
        return sendError(`message of ${data.length} bytes exceeds the limit of ${limits.maxMessageBytes} bytes: dropped`);
      }
      take(data, isBinary);
    },
    socketClosed: release,
    shutdown,
    stats: () => statsOf(queue, pressure, counts, backlog().pendingBytes, sampleRate),
    get ended() {
      return released;
    },
  };
}
