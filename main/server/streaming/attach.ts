/**
 * The live transcription socket, `ws://127.0.0.1:PORT/v1/audio/transcriptions/stream`, attached
 * to the local API's HTTP server. This file is the door: Host/Origin defence before upgrading,
 * credentials and parameters after (admission.ts; refusals are an `error` message then close
 * 1008, as the contract asks), revoked keys, and shutdown. The session itself is session.ts.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { KEY_CACHE_MS, type AccountService } from '../../services/accounts/account-service.js';
import { DomainError } from '../../services/errors.js';
import { DEFAULT_ENDPOINTING, sessionEndpointer, type StreamDecoderFactory } from '../../services/live/index.js';
import type { EndpointerFactory, EndpointingDetector, EndpointingOptions } from '../../services/transcriptions/ports.js';
import { DEFAULT_STREAMING_LIMITS, type StreamingLimits } from './limits.js';
import { errorMessage, statusMessage } from './messages.js';
import { isPolicyError, refuseByOrigin } from './params.js';
import { createStreamSession, type SessionTuning, type StreamSession } from './session.js';
import { createAdmission, createSessionCounts, decoderParams, Refusal, type Admitted, type AdmissionDeps } from './admission.js';

export type { StreamingLimits } from './limits.js';

/** Path of the streaming socket (contract "Endpoints"). */
export const STREAM_PATH = '/v1/audio/transcriptions/stream';

export interface StreamingDeps extends AdmissionDeps {
  server: Server; logger: Logger; accounts: AccountService;
  /**
   * The account's live engine (its choice in `/v1/settings/engines`), read as each session starts:
   * a new choice applies to the next session, a running one keeps its engine. Default: the device's.
   */
  liveEngine?: (accountId: string) => Promise<string>;
  /** The detector whose endpointer live sessions use (Silero); it may throw when its model is unavailable. */
  vad: () => EndpointingDetector;
  /** Endpointer without a model (energy), for when the detector is unavailable or fails mid-session. */
  fallbackEndpointer: EndpointerFactory;
  limits?: Partial<StreamingLimits>;
  /** Streaming audio decoder factory (the audio engines' `createStreamDecoder`), chosen by the composition. */
  createDecoder: StreamDecoderFactory;
  /** Voice-activity endpointing; `endSilenceMs` default 400, `minSpeechMs` default 96. */
  endpointing?: Partial<EndpointingOptions>;
  /** Partial cadence and utterance bounds (see SessionTuning). */
  tuning?: Partial<SessionTuning>;
  /**
   * How often live sessions' keys are read again (default KEY_CACHE_MS, 5 s): a key revoked by
   * `clindoc keys revoke` or on another instance ends its sessions within this long, as REST stops
   * taking it within the same time.
   */
  keyCheckMs?: number;
}
export interface StreamingHandle { close(): Promise<void>; activeSessions(): number }

interface Live {
  ws: WebSocket;
  accountId: string;
  /** The key the session was opened with (directly, or through the streaming token it issued). */
  keyId: string;
  session: StreamSession;
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`);
  socket.destroy();
}

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

const sendJson = (ws: WebSocket, m: object): void => {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
};

/** Refuses a connection as the contract asks: an `error` message, then 1008 (policy) or 1011. */
function refuse(ws: WebSocket, refusal: Refusal, logger: Logger): void {
  const err = refusal.error;
  const policy = isPolicyError(err);
  const message = err instanceof DomainError ? err.message : 'the session could not be started';
  if (!(err instanceof DomainError)) logger.error({ err: (err as Error).name }, 'streaming session could not start');
  const send = (): void => {
    ws.resume(); // to read the client's answer to the close
    sendJson(ws, errorMessage(message));
    ws.close(policy ? 1008 : 1011, policy ? 'policy violation' : 'engine unavailable');
  };
  // A wrong key past the first few is answered late, as on REST, to slow a guesser down.
  if (refusal.delayMs > 0) setTimeout(send, refusal.delayMs);
  else send();
}

/**
 * Ends the sessions whose key was revoked since they opened (issue 29: they went on for as long
 * as the client kept talking): the contract's refusal, an `error` message then close 1008, and
 * no final. Nothing is ended when the keys cannot be read (a database restart): a session is cut
 * only for a revocation actually seen.
 */
function createKeyCheck(live: Set<Live>, accounts: AccountService): () => Promise<void> {
  let checking = false;
  const endRevoked = (accountId: string, active: Set<string>): void => {
    for (const l of live) {
      if (l.accountId !== accountId || active.has(l.keyId)) continue;
      live.delete(l);
      if (l.ws.readyState === WebSocket.OPEN) {
        l.ws.send(JSON.stringify(errorMessage('the API key this session was opened with was revoked: session closed')));
        l.ws.close(1008, 'key revoked');
      }
      l.session.socketClosed();
    }
  };
  return async () => {
    if (checking || live.size === 0) return;
    checking = true;
    try {
      for (const accountId of new Set([...live].map((l) => l.accountId))) {
        const keys = await accounts.listKeys(accountId).catch(() => undefined);
        if (keys) endRevoked(accountId, new Set(keys.filter((k) => k.revokedAt === null).map((k) => k.id)));
      }
    } finally {
      checking = false;
    }
  };
}

/**
 * Every socket, also one whose credentials or engine were still being looked up when the shutdown
 * began (its session is not live yet and would otherwise be cut without a word). Clients get a
 * moment to answer the close frame, then what is left is cut. A session whose final did not come
 * in time (a recogniser call on a loaded machine) still gets the close frame, so the client
 * learns the server went away rather than seeing the connection drop.
 */
async function closeSockets(wss: WebSocketServer): Promise<void> {
  await Promise.all([...wss.clients].map((ws) => new Promise<void>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'server shutting down');
    ws.resume(); // a socket still being set up is paused; read the client's answer to the close
    const t = setTimeout(() => {
      ws.terminate();
      resolve();
    }, 500);
    ws.once('close', () => {
      clearTimeout(t);
      resolve();
    });
  })));
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
}

/** The detector for a new session, or none (energy endpointing); the first one loads its model at once. */
function createVadPicker(deps: StreamingDeps, endpointing: EndpointingOptions) {
  let warmed = false;
  return (logger: Logger): EndpointingDetector | undefined => {
    let vad: EndpointingDetector | undefined;
    try {
      vad = deps.vad();
    } catch {
      logger.warn('voice activity detector unavailable; energy endpointing');
    }
    if (vad && !warmed) {
      // Load the detector's model while the client starts talking, not on its first chunk.
      warmed = true;
      vad.createEndpointer(endpointing).push(new Int16Array(512)).catch(() => undefined);
    }
    return vad;
  };
}

/**
 * Attaches the streaming endpoint to `server` (upgrade requests on STREAM_PATH only; any other
 * upgrade is answered 404). Returns a handle that ends every session and detaches.
 */
export function attachStreaming(deps: StreamingDeps): StreamingHandle {
  const limits: StreamingLimits = { ...DEFAULT_STREAMING_LIMITS, ...deps.limits };
  const endpointing: EndpointingOptions = { ...DEFAULT_ENDPOINTING, ...deps.endpointing };
  // Frames up to 4x the message limit are read so the client gets an error message and goes on;
  // beyond that ws closes with 1009 without buffering the frame.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes * 4, perMessageDeflate: false });
  const live = new Set<Live>();
  const admit = createAdmission(deps, createSessionCounts(limits.maxSessionsPerAccount));
  const pickVad = createVadPicker(deps, endpointing);
  let closed = false;

  const startSession = (ws: WebSocket, { principal, params, stream, uncount }: Admitted): void => {
    const accountId = principal.accountId;
    const logger = deps.logger.child({ streamSession: randomUUID().slice(0, 8), accountId });
    logger.info({ encoding: params.encoding ?? 'container', sampleRate: params.sampleRate, dictation: params.dictation }, 'streaming session started');
    const vad = pickVad(logger);
    sendJson(ws, statusMessage('connected'));
    const entry: Live = {
      ws, accountId, keyId: principal.keyId,
      session: createStreamSession({
        socket: { send: (m) => sendJson(ws, m), close: (code, reason) => ws.close(code, reason), pause: () => ws.pause(), resume: () => ws.resume() },
        createDecoder: () => deps.createDecoder(decoderParams(params)),
        stream,
        endpointer: sessionEndpointer(vad, deps.fallbackEndpointer, endpointing),
        fallbackEndpointer: () => deps.fallbackEndpointer(endpointing),
        limits, dictation: params.dictation, container: params.encoding === undefined, sampleRate: 16000, logger,
        ...(deps.tuning ? { tuning: deps.tuning } : {}),
        onEnd: () => {
          live.delete(entry);
          uncount();
        },
      }),
    };
    live.add(entry);
    // Frames the client sent before `connected` wait in ws's receiver until now, so they are
    // handled in order like any other (the contract asks clients to wait; nothing is lost if not).
    ws.on('message', (data, isBinary) => entry.session.receive(toBuffer(data), isBinary));
    ws.on('close', () => entry.session.socketClosed());
    ws.on('error', () => entry.session.socketClosed());
    ws.resume();
  };

  const onConnection = async (ws: WebSocket, req: IncomingMessage, url: URL): Promise<void> => {
    // Nothing is read from the client while its credentials and engine are looked up: frames it
    // sends before `connected` wait in the socket until the session is listening (resumed below).
    ws.pause();
    // A socket error while that runs must not go unheard (an unheard 'error' would end the process).
    ws.on('error', () => undefined);
    let admitted: Admitted;
    try {
      admitted = await admit(req, url);
    } catch (err) {
      return refuse(ws, err instanceof Refusal ? err : new Refusal(err, 0), deps.logger);
    }
    if (ws.readyState !== WebSocket.OPEN || closed) {
      // The client left, or the server began shutting down, while the session was being set up.
      admitted.uncount();
      admitted.stream.close();
      if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'server shutting down');
      ws.resume();
      return;
    }
    startSession(ws, admitted);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== STREAM_PATH) return rejectUpgrade(socket, 404, 'Not Found');
    const refused = refuseByOrigin(req, deps);
    if (refused) return rejectUpgrade(socket, 403, 'Forbidden');
    if (closed) return rejectUpgrade(socket, 503, 'Service Unavailable');
    wss.handleUpgrade(req, socket, head, (ws) => {
      onConnection(ws, req, url).catch((err: unknown) => {
        deps.logger.error({ err: (err as Error).name }, 'streaming session could not start');
        ws.terminate();
      });
    });
  };
  deps.server.on('upgrade', onUpgrade);
  const checkKeys = createKeyCheck(live, deps.accounts);
  const keyTimer = setInterval(() => void checkKeys().catch(() => undefined), deps.keyCheckMs ?? KEY_CACHE_MS);
  keyTimer.unref();

  return {
    activeSessions: () => live.size,
    async close() {
      closed = true;
      clearInterval(keyTimer);
      deps.server.off('upgrade', onUpgrade);
      // Each session sends the final for what it heard (a recogniser call may still be running);
      // a session that cannot finish in time is cut below like any other.
      let giveUp: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...live].map((l) => l.session.shutdown(1001, 'server shutting down'))),
        new Promise<void>((resolve) => (giveUp = setTimeout(resolve, 3000))),
      ]);
      clearTimeout(giveUp);
      await closeSockets(wss);
    },
  };
}
