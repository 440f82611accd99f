/**
 * Who may open a live session, checked after the upgrade and before `connected`: the credentials
 * (throttled like the REST API's, so keys and tokens guessed here count too), the parameters, the
 * per-account session count, a decoder for the parameters, and the account's live engine.
 */
import type { IncomingMessage } from 'node:http';
import type { AccountService, Principal } from '../../services/accounts/account-service.js';
import type { AuthThrottle } from '../../services/auth-throttle/auth-throttle.js';
import type { SharedThrottle } from '../../services/auth-throttle/shared-throttle.js';
import { DomainError } from '../../services/errors.js';
import type { StreamDecoderFactory } from '../../services/live/index.js';
import type { SpeechRecognizer, SpeechStream } from '../../services/transcriptions/ports.js';
import { throttledAuthenticate, throttleScope, type LockoutEvent } from '../middleware/auth-throttle.js';
import { hostOriginPolicy } from '../middleware/local-guard.js';
import { isLoopbackAddress } from '../routes/ops.js';
import { readCredentials, readSessionParams, type OriginPolicy, type SessionParams } from './params.js';

export interface AdmissionDeps extends OriginPolicy {
  accounts: AccountService;
  /** The client's address behind a trusted TLS proxy (the REST API's rule); default the socket's peer. */
  clientAddress?: (req: IncomingMessage) => string;
  /** The recogniser of an engine by name; the device's default engine when no name is given. */
  /** The recogniser of an engine name, for the account (an account may have its own adapted one). */
  recognizer: (engine?: string, accountId?: string) => SpeechRecognizer | Promise<SpeechRecognizer>;
  /** The account's live engine, read as each session starts. Default: the device's. */
  liveEngine?: (accountId: string) => Promise<string>;
  /** Opens a decoder; one is opened and closed at once to check the parameters. */
  createDecoder: StreamDecoderFactory;
  /** The REST API's failed-authentication throttle, so keys and tokens guessed here count too. */
  authThrottle?: { throttle: AuthThrottle; shared?: SharedThrottle; onLockout(event: LockoutEvent): void };
}

/** A session that may start: who, with what, on which engine stream; `uncount` gives its place back. */
export interface Admitted {
  principal: Principal;
  params: SessionParams;
  stream: SpeechStream;
  uncount(): void;
}

/** A refusal: the error for the client, and how long to wait before sending it (a throttled guess). */
export class Refusal {
  constructor(readonly error: unknown, readonly delayMs: number) {}
}

/** The open sessions per account, against the account limit. */
export function createSessionCounts(max: number) {
  const perAccount = new Map<string, number>();
  return {
    /** Takes a place for `accountId` (throws `forbidden` at the limit); the returned function gives it back once. */
    take(accountId: string): () => void {
      if ((perAccount.get(accountId) ?? 0) >= max) {
        throw new DomainError('forbidden', `this account already has ${max} open streaming sessions (the limit)`);
      }
      perAccount.set(accountId, (perAccount.get(accountId) ?? 0) + 1);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        const n = (perAccount.get(accountId) ?? 1) - 1;
        if (n > 0) perAccount.set(accountId, n);
        else perAccount.delete(accountId);
      };
    },
  };
}

/** The principal, or the refusal and how long to wait before sending it. */
function createAuthenticator(deps: AdmissionDeps) {
  // The app's own page on loopback is counted apart from other local programs, as on REST.
  const scopeOf = throttleScope(isLoopbackAddress, hostOriginPolicy({
    port: deps.port, extraHosts: deps.allowedHosts, allowedOrigins: deps.allowedOrigins, secure: deps.secure ?? false,
  }).ownOrigin);
  return async (req: IncomingMessage, query: URLSearchParams): Promise<{ principal?: Principal; error?: DomainError; delayMs: number }> => {
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
}

/** The decoder parameters of a session. */
export const decoderParams = (params: SessionParams) => ({ ...(params.encoding ? { encoding: params.encoding } : {}), sampleRate: params.sampleRate, channels: params.channels });

/**
 * Admits or refuses one upgraded request; throws a `Refusal`. The session's place is counted
 * before the engine is looked up, so sessions starting side by side cannot pass the limit together.
 */
export function createAdmission(deps: AdmissionDeps, counts: ReturnType<typeof createSessionCounts>) {
  const authenticate = createAuthenticator(deps);
  const openStream = async (params: SessionParams, accountId: string): Promise<SpeechStream> => {
    const recognizer = await deps.recognizer(await deps.liveEngine?.(accountId), accountId);
    if (!recognizer.createStream) throw new DomainError('engine_unavailable', `the ${recognizer.name} engine does not support live transcription`);
    return recognizer.createStream({ language: params.language });
  };
  return async (req: IncomingMessage, url: URL): Promise<Admitted> => {
    let delayMs = 0;
    let uncount = (): void => undefined;
    try {
      const auth = await authenticate(req, url.searchParams);
      delayMs = auth.delayMs;
      if (!auth.principal) throw auth.error;
      const principal = auth.principal;
      const params = readSessionParams(url.searchParams);
      uncount = counts.take(principal.accountId);
      deps.createDecoder(decoderParams(params)).close();
      return { principal, params, stream: await openStream(params, principal.accountId), uncount };
    } catch (err) {
      uncount();
      throw new Refusal(err, delayMs);
    }
  };
}
