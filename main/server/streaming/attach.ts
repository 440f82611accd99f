/**
 * The live transcription socket, `ws://127.0.0.1:PORT/v1/audio/transcriptions/stream`, attached
 * to the local API's HTTP server. This file is the door: Host/Origin defence before upgrading,
 * credentials and parameters after (refusals are an `error` message then close 1008, as the
 * contract asks), the per-account session count, and shutdown. The session itself is session.ts.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { KEY_CACHE_MS, type AccountService, type Principal } from '../../services/accounts/account-service.js';
import { DomainError } from '../../services/errors.js';
import { DEFAULT_ENDPOINTING, sessionEndpointer } from '../../services/live/index.js';
import type { EndpointerFactory, EndpointingDetector, EndpointingOptions, SpeechRecognizer, SpeechStream } from '../../services/transcriptions/ports.js';
import { DEFAULT_STREAMING_LIMITS, type StreamingLimits } from './limits.js';
import { errorMessage, statusMessage } from './messages.js';
import { isPolicyError, readCredentials, readSessionParams, refuseByOrigin, type SessionParams } from './params.js';
import { createStreamSession, type ChunkDecoder, type SessionTuning, type StreamSession } from './session.js';
import { throttledAuthenticate, throttleScope, type LockoutEvent } from '../middleware/auth-throttle.js';
import { hostOriginPolicy } from '../middleware/local-guard.js';
import { isLoopbackAddress } from '../routes/ops.js';
import type { AuthThrottle } from '../../services/auth-throttle/auth-throttle.js';
import type { SharedThrottle } from '../../services/auth-throttle/shared-throttle.js';

export type { StreamingLimits } from './limits.js';

/** Path of the streaming socket (contract "Endpoints"). */
export const STREAM_PATH = '/v1/audio/transcriptions/stream';

export interface StreamingDeps {
  server: Server; logger: Logger; accounts: AccountService;
  port: () => number; allowedOrigins: string[]; allowedHosts: string[];
  /** The clinic's name is served over HTTPS (TLS or a TLS proxy): its https origins are the app's own. */
  secure?: boolean;
  /** The client's address behind a trusted TLS proxy (the REST API's rule); default the socket's peer. */
  clientAddress?: (req: IncomingMessage) => string;
  recognizer: (engine?: string) => SpeechRecognizer;   // default engine when no arg
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
  createDecoder: (options: { encoding?: string; sampleRate: number; channels: number }) => ChunkDecoder;
  /** Voice-activity endpointing; `endSilenceMs` default 400, `minSpeechMs` default 96. */
  endpointing?: Partial<EndpointingOptions>;
  /** Partial cadence and utterance bounds (see SessionTuning). */
  tuning?: Partial<SessionTuning>;
  /** The REST API's failed-authentication throttle, so keys and tokens guessed here count too. */
  authThrottle?: { throttle: AuthThrottle; shared?: SharedThrottle; onLockout(event: LockoutEvent): void };
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

/**
 * Attaches the streaming endpoint to `server` (upgrade requests on STREAM_PATH only; any other
 * upgrade is answered 404). Returns a handle that ends every session and detaches.
 */
export function attachStreaming(deps: StreamingDeps): StreamingHandle {
  const limits: StreamingLimits = { ...DEFAULT_STREAMING_LIMITS, ...deps.limits };
  const endpointing: EndpointingOptions = { ...DEFAULT_ENDPOINTING, ...deps.endpointing };
  const makeDecoder = deps.createDecoder;
  // Frames up to 4x the message limit are read so the client gets an error message and goes on;
  // beyond that ws closes with 1009 without buffering the frame.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes * 4, perMessageDeflate: false });
  const live = new Set<Live>();
  const perAccount = new Map<string, number>();
  // The app's own page on loopback is counted apart from other local programs, as on REST.
  const scopeOf = throttleScope(isLoopbackAddress, hostOriginPolicy({
    port: deps.port, extraHosts: deps.allowedHosts, allowedOrigins: deps.allowedOrigins, secure: deps.secure ?? false,
  }).ownOrigin);
  let closed = false;
  let vadWarmed = false;

  /** The principal, or the refusal and how long to wait before sending it (a throttled guess). */
  const authenticate = async (req: IncomingMessage, query: URLSearchParams): Promise<{ principal?: Principal; error?: DomainError; delayMs: number }> => {
    const creds = readCredentials(req, query);
    if (!creds.apiKey && !creds.token) return { error: new DomainError('unauthorized', 'X-API-KEY or X-API-TOKEN header, or api_token query, is required'), delayMs: 0 };
    if (!creds.accountId) return { error: new DomainError('unauthorized', 'X-ACCOUNT-ID header or account_id query is required'), delayMs: 0 };
    const verify = (): Promise<Principal> => creds.apiKey
      ? deps.accounts.authenticate(creds.apiKey, creds.accountId)
      : deps.accounts.authenticateStreamToken(creds.token!, creds.accountId);
    if (!deps.authThrottle) {
      try {
        return { principal: await verify(), delayMs: 0 };
      } catch (err) {
        return { error: err as DomainError, delayMs: 0 };
      }
    }
    const address = deps.clientAddress?.(req) ?? req.socket.remoteAddress ?? 'unknown';
    const scope = scopeOf(address, req.headers.origin);
    return throttledAuthenticate(deps.authThrottle, { address, accountId: creds.accountId, presented: true, requestId: null, ...(scope ? { scope } : {}) }, verify);
  };

  const openStream = async (params: SessionParams, accountId: string): Promise<SpeechStream> => {
    const recognizer = deps.recognizer(await deps.liveEngine?.(accountId));
    if (!recognizer.createStream) throw new DomainError('engine_unavailable', `the ${recognizer.name} engine does not support live transcription`);
    return recognizer.createStream({ language: params.language });
  };

  const onConnection = async (ws: WebSocket, req: IncomingMessage, url: URL): Promise<void> => {
    const sendRaw = (m: object): void => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(m));
    };
    // Nothing is read from the client while its credentials and engine are looked up: frames it
    // sends before `connected` wait in the socket until the session is listening (resumed below).
    ws.pause();
    // A socket error while that runs must not go unheard (an unheard 'error' would end the process).
    ws.on('error', () => undefined);
    let principal: Principal;
    let params: SessionParams;
    let stream: SpeechStream;
    let refusalDelayMs = 0;
    /** The account whose session count this connection holds a place in (taken before the engine is looked up). */
    let counted: string | undefined;
    const uncount = (): void => {
      if (counted === undefined) return;
      const n = (perAccount.get(counted) ?? 1) - 1;
      if (n > 0) perAccount.set(counted, n);
      else perAccount.delete(counted);
      counted = undefined;
    };
    try {
      const auth = await authenticate(req, url.searchParams);
      refusalDelayMs = auth.delayMs;
      if (!auth.principal) throw auth.error;
      principal = auth.principal;
      params = readSessionParams(url.searchParams);
      if ((perAccount.get(principal.accountId) ?? 0) >= limits.maxSessionsPerAccount) {
        throw new DomainError('forbidden', `this account already has ${limits.maxSessionsPerAccount} open streaming sessions (the limit)`);
      }
      // Counted now, before the next wait, so sessions starting side by side cannot pass the limit together.
      counted = principal.accountId;
      perAccount.set(counted, (perAccount.get(counted) ?? 0) + 1);
      makeDecoder({ ...(params.encoding ? { encoding: params.encoding } : {}), sampleRate: params.sampleRate, channels: params.channels }).close();
      stream = await openStream(params, principal.accountId);
    } catch (err) {
      uncount();
      const policy = isPolicyError(err);
      const message = err instanceof DomainError ? err.message : 'the session could not be started';
      if (!(err instanceof DomainError)) deps.logger.error({ err: (err as Error).name }, 'streaming session could not start');
      const refuse = (): void => {
        ws.resume(); // to read the client's answer to the close
        sendRaw(errorMessage(message));
        ws.close(policy ? 1008 : 1011, policy ? 'policy violation' : 'engine unavailable');
      };
      // A wrong key past the first few is answered late, as on REST, to slow a guesser down.
      if (refusalDelayMs > 0) setTimeout(refuse, refusalDelayMs);
      else refuse();
      return;
    }

    if (ws.readyState !== WebSocket.OPEN || closed) {
      // The client left, or the server began shutting down, while the session was being set up.
      uncount();
      stream.close();
      if (ws.readyState === WebSocket.OPEN) ws.close(1001, 'server shutting down');
      ws.resume();
      return;
    }
    const accountId = principal.accountId;
    const logger = deps.logger.child({ streamSession: randomUUID().slice(0, 8), accountId });
    logger.info({ encoding: params.encoding ?? 'container', sampleRate: params.sampleRate, dictation: params.dictation }, 'streaming session started');
    let vad: EndpointingDetector | undefined;
    try {
      vad = deps.vad();
    } catch {
      logger.warn('voice activity detector unavailable; energy endpointing');
    }
    if (vad && !vadWarmed) {
      // Load the detector's model while the client starts talking, not on its first chunk.
      vadWarmed = true;
      vad.createEndpointer(endpointing).push(new Int16Array(512)).catch(() => undefined);
    }
    sendRaw(statusMessage('connected'));
    const entry: Live = {
      ws, accountId, keyId: principal.keyId,
      session: createStreamSession({
        socket: { send: sendRaw, close: (code, reason) => ws.close(code, reason), pause: () => ws.pause(), resume: () => ws.resume() },
        createDecoder: () => makeDecoder({ ...(params.encoding ? { encoding: params.encoding } : {}), sampleRate: params.sampleRate, channels: params.channels }),
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

  /**
   * Ends the sessions whose key was revoked since they opened (issue 29: they went on for as long
   * as the client kept talking): the contract's refusal, an `error` message then close 1008, and
   * no final. Nothing is ended when the keys cannot be read (a database restart): a session is cut
   * only for a revocation actually seen.
   */
  let checking = false;
  const checkKeys = async (): Promise<void> => {
    if (checking || live.size === 0) return;
    checking = true;
    try {
      for (const accountId of new Set([...live].map((l) => l.accountId))) {
        const keys = await deps.accounts.listKeys(accountId).catch(() => undefined);
        if (!keys) continue;
        const active = new Set(keys.filter((k) => k.revokedAt === null).map((k) => k.id));
        for (const l of live) {
          if (l.accountId !== accountId || active.has(l.keyId)) continue;
          live.delete(l);
          if (l.ws.readyState === WebSocket.OPEN) {
            l.ws.send(JSON.stringify(errorMessage('the API key this session was opened with was revoked: session closed')));
            l.ws.close(1008, 'key revoked');
          }
          l.session.socketClosed();
        }
      }
    } finally {
      checking = false;
    }
  };
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
      // Every socket, also one whose credentials or engine were still being looked up when the
      // shutdown began (its session is not live yet and would otherwise be cut without a word).
      const sockets = [...wss.clients];
      // Give clients a moment to answer the close frame, then cut what is left. A session whose final
      // did not come in time (a recogniser call on a loaded machine) still gets the close frame, so
      // the client learns the server went away rather than seeing the connection drop.
      await Promise.all(sockets.map((ws) => new Promise<void>((resolve) => {
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
    },
  };
}
