import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRouteRegistry, type RouteRegistry } from './route-registry.js';
import { frontDoor, requestAddress } from './middleware/front-door.js';
import { pathOf } from './middleware/request-log.js';
import { rateLimit } from './middleware/rate-limit.js';
import type { RateWindows } from '../services/rate-windows.js';
import { errorHandler } from './middleware/error-handler.js';
import { tooDeep } from './middleware/json-depth.js';
import { createOpsMetrics, type OpsMetrics } from './middleware/metrics.js';
import { createDrainState, type DrainState } from './middleware/drain.js';
import { hostOriginPolicy } from './middleware/local-guard.js';
import { OPS_PATHS, isLoopbackAddress, opsRouter, type ReadinessCheck } from './routes/ops.js';
import { registerJobRoutes, type DeadLetterSource } from './routes/jobs.js';
import { clientAddress, type ProxyTrust } from './middleware/client-address.js';
import type { IncomingMessage, RequestListener } from 'node:http';
import { authenticateRequests, lockoutAuditEvent, throttleScope, type LockoutEvent } from './middleware/auth-throttle.js';
import { createAuthThrottle, type AuthThrottle } from '../services/auth-throttle/auth-throttle.js';
import type { SharedThrottle } from '../services/auth-throttle/shared-throttle.js';
import { registerAuditRoutes } from './routes/audit.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerModelRoutes } from './routes/models.js';
import type { ModelService } from '../services/models/model-service.js';
import { registerEngineRoutes } from './routes/engines.js';
import type { EngineStatusService } from '../services/engines/engine-status.js';


import type { AuditService } from '../services/audit/audit-service.js';
import { buildOpenApi } from './openapi.js';
import { docsRouter } from './docs.js';
import { registerNoteRoutes } from './routes/notes.js';
import { registerUtilityRoutes } from './routes/utilities.js';
import { registerTemplateRoutes } from './routes/note-templates.js';
import { registerTranscriptionRoutes } from './routes/transcriptions.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import { registerMacroLibraryRoutes } from './routes/macro-library.js';
import { registerStorageRoutes } from './routes/storage.js';
import { registerVisitRoutes } from './routes/visits.js';
import { registerSignInRoutes } from './routes/sign-in.js';
import type { SignInLinks } from '../services/accounts/sign-in-links.js';
import type { VisitService } from '../services/visits/visit-service.js';
import { registerCodingRoutes } from './routes/coding.js';
import { registerCodingEditionRoutes } from './routes/coding-editions.js';
import type { CodeEditionsService } from '../services/coding/code-editions.js';
import type { CodingService } from '../services/coding/coding-service.js';
import { registerBackupRoutes } from './routes/backups.js';
import { registerVoiceAdaptationRoutes } from './routes/voice-adaptation.js';
import type { VoiceAdaptationService } from '../services/voice-adaptation/voice-adaptation-service.js';
import { createBackupService, type BackupService } from '../services/backup/backup-service.js';
import type { StorageUsageService } from '../services/storage-usage/storage-usage-service.js';
import { streamingPaths } from './stream-doc.js';
import type { AccountService, Principal } from '../services/accounts/account-service.js';
import type { NoteService } from '../services/notes/note-service.js';
import type { StyleService } from '../services/notes/style-service.js';
import type { TemplateService } from '../services/templates/template-service.js';
import type { TranscriptionService } from '../services/transcriptions/transcription-service.js';
import type { EngineSettingsService } from '../services/transcriptions/engine-settings.js';
import type { ExtractionService } from '../services/extraction/index.js';
import type { MacroService } from '../services/macros/index.js';
import type { WebhookService } from '../services/webhooks/webhook-service.js';
import type { MacroLibraryService } from '../services/macros/library-service.js';
import type { IdempotencyStore } from '../services/storage.js';
import { DomainError } from '../services/errors.js';

export interface ApiServices {
  /** Background jobs that failed every attempt (`GET /v1/jobs/dead-letters`). */
  deadLetters?: DeadLetterSource;
  accounts: AccountService;
  notes: NoteService;
  styles: StyleService;
  templates: TemplateService;
  transcriptions: TranscriptionService;
  extraction: ExtractionService;
  macros: MacroService;
  macroLibrary: MacroLibraryService;
  webhooks: WebhookService;
  idempotency: IdempotencyStore;
  /** The audit trail and retention settings (issue 9). */
  audit: AuditService;
  /** The account's storage usage and "delete all data". */
  storage: StorageUsageService;
  /** Visits: one patient encounter and everything documented for it (`/v1/visits`). */
  visits: VisitService;
  /** One-click sign-in links of the interface served to a browser (`POST /v1/sign-in`). */
  signIn?: SignInLinks;
  /** The account's default speech recogniser (`/v1/settings/engines`). */
  engines: EngineSettingsService;
  /** ICD-10-CM and office E/M suggestions (`/v1/coding/analyze`). */
  coding: CodingService;
  /** ICD-10-CM editions and their import from Settings (`/v1/coding/editions`); absent in apps built without one. */
  codeEditions?: CodeEditionsService;
  /** Failed-authentication throttle, shared with the streaming socket (default: the documented limits). */
  authThrottle?: AuthThrottle;
  /** The lockouts every instance of a clinic counts in its database (absent: this process alone counts). */
  sharedThrottle?: SharedThrottle;
  /** The model manager (`/v1/models`); absent in apps built without one (tests of other routes). */
  models?: ModelService;
  /** Which engine answers each task, with measured quality and warnings (`/v1/engines`). */
  engineStatus?: EngineStatusService;


  /** Learning the physician's voice (`/v1/speech/adaptation`); absent in apps built without it. */
  voiceAdaptation?: VoiceAdaptationService;
  /** Backups into the operator's folder (default: none configured, so `POST /v1/backups` is a 409). */
  backups?: BackupService;
}

/**
 * Records a lockout in the audit trail, naming the account only when the claimed id is a real one.
 * The 429 does not wait for it; when the accounts cannot be read, the entry names no account.
 */
export function recordLockout(services: Pick<ApiServices, 'accounts' | 'audit'>, event: LockoutEvent): void {
  void services.accounts.listAccounts()
    .then((accounts) => (accounts.some((a) => a.id === event.claimedAccountId) ? event.claimedAccountId : null), () => null)
    .then((known) => services.audit.record(lockoutAuditEvent(event, known)));
}

export interface ApiOptions {
  /**
   * False for a worker process (`--role worker`): only /healthz, /readyz and /metrics are served;
   * the API, its documents and the interface answer 404. Default true.
   */
  serveApi?: boolean;
  logger: Logger;
  /** Port actually bound (known after listen; used for Host/Origin checks). */
  port: () => number;
  host: string;
  version: string;
  bodyLimitBytes: number;
  maxAudioBytes: number;
  /** Requests per window and key; `windows` counts them across API instances (default: this process's memory). */
  rateLimit: { limit: number; windowSeconds: number; windows?: RateWindows };
  allowedOrigins: string[];
  allowedHosts: string[];
  corsOrigins: string[];
  streamTokenTtlSeconds: number;
  /** Built renderer to serve at `/` (the app's own origin), when present. */
  rendererDir?: string;
  /**
   * The clinic's name is served over HTTPS (CLINDOC_TLS_CERT, or a TLS proxy in front): its
   * https origins are the app's own, and the OpenAPI server URL is https. Default false.
   */
  secure?: boolean;
  /** Express `trust proxy` (CLINDOC_TRUSTED_PROXIES behind a TLS proxy); default none trusted. */
  trustProxy?: string[];
  /**
   * Check every success body against its route's success schema before it is sent; a mismatch is a
   * logged 500 (ResponseSchemaError). The tests' servers turn it on; default off (it costs a parse per answer).
   */
  validateResponses?: boolean;
  /** Operations endpoints (routes/ops.ts) and drain; each part defaults to an empty or fresh one. */
  ops?: { checks?: ReadinessCheck[]; metrics?: OpsMetrics; drain?: DrainState; metricsToken?: string };
}

/** Builds the express app of the local API. No listening, no globals: tests build one per case. */
export function createApiApp(services: ApiServices, options: ApiOptions): {
  app: Express;
  /** What the HTTP server calls: `/v1` and `/v2` requests go straight to the API, the rest to `app`. */
  listener: RequestListener;
  openapi: () => Record<string, unknown>;
  /** The client's address under the app's `trust proxy` rule, for the streaming socket's upgrade requests. */
  clientAddress: (req: IncomingMessage) => string;
} {
  const app = express();
  app.disable('x-powered-by');
  // Forwarded addresses are believed only from the configured TLS proxy; req.ip is the client's then.
  app.set('trust proxy', options.trustProxy?.length ? options.trustProxy : false);
  app.set('query parser', 'simple');
  const drain = options.ops?.drain ?? createDrainState();
  const metrics = options.ops?.metrics ?? createOpsMetrics({ processMetrics: false });
  const guard = { port: options.port, extraHosts: options.allowedHosts, allowedOrigins: [...options.allowedOrigins, ...options.corsOrigins], secure: options.secure ?? false };
  const policy = hostOriginPolicy(guard);
  // Health probes and scrapes are answered before the Host rule: a load balancer probes by
  // address, and these answers name no patient or account.
  const ops = opsRouter({
    checks: options.ops?.checks ?? [], draining: drain.draining, metrics, guard: policy.refusal,
    ...(options.ops?.metricsToken ? { metricsToken: options.ops.metricsToken } : {}),
  });
  const door = frontDoor({
    logger: options.logger, audit: services.audit, metrics, drain, corsOrigins: options.corsOrigins,
    ops: { paths: OPS_PATHS, handle: ops },
    ...(options.serveApi === false ? {} : { refusal: policy.refusal }),
  });
  app.use(door);
  const errors = errorHandler(options.logger);
  if (options.serveApi === false) {
    app.use((_req, _res, next) => next(new DomainError('not_found', 'this instance runs background work only; send API requests to an API instance')));
    app.use(errors);
    return { app, listener: app, openapi: () => ({}), clientAddress: clientAddress(app.get('trust proxy fn') as ProxyTrust) };
  }
  const registry = createApiRegistry(services, options, metrics);
  // Wrong keys are counted per address and account: slowed, then 429 (main/services/auth-throttle).
  const authenticate = authenticateRequests({
    throttle: services.authThrottle ?? createAuthThrottle(),
    ...(services.sharedThrottle ? { shared: services.sharedThrottle } : {}),
    authenticate: (apiKey, accountId) => services.accounts.authenticate(apiKey, accountId),
    onLockout: (event) => recordLockout(services, event),
    scopeOf: throttleScope(isLoopbackAddress, policy.ownOrigin),
  });
  const limit = rateLimit({
    ...options.rateLimit,
    keyOf: (_req, res) => (res.locals.principal as Principal | undefined)?.accountId ?? `ip:${requestAddress(res)}`,
  });
  /** `/v1` and `/v2` requests: credentials, then the rate limit, then the route (or on to a 404). */
  const api = (req: Request, res: Response, next: NextFunction): void => {
    if (!API_PATH.test(pathOf(req.url))) return next();
    void authenticate(req, res, (authErr?: unknown) => {
      if (authErr) return next(authErr);
      void limit(req, res, (limitErr?: unknown) => (limitErr ? next(limitErr) : registry.dispatch(req, res, next)));
    });
  };

  registerApiRoutes(registry, services, options);

  let doc: Record<string, unknown> | undefined;
  const openapi = (): Record<string, unknown> =>
    (doc ??= buildOpenApi(registry.routes.map((r) => r.spec), {
      serverUrl: `${options.secure ? 'https' : 'http'}://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port()}`,
      version: options.version,
      metricsToken: Boolean(options.ops?.metricsToken),
      paths: streamingPaths(),
    }));

  app.use(api);
  app.get('/openapi.json', (req, res) => {
    // Under the clinic's name (an allowed host: the guard has checked it) clients reach the service
    // as that name, through its TLS or a TLS proxy, not at the address it listens on.
    const host = req.headers.host?.toLowerCase();
    const named = options.secure && host && options.allowedHosts.some((h) => host === h.toLowerCase() || host.startsWith(`${h.toLowerCase()}:`));
    res.json(named ? { ...openapi(), servers: [{ url: `https://${host}` }] } : openapi());
  });
  app.use(docsRouter());
  if (options.rendererDir && existsSync(join(options.rendererDir, 'index.html'))) {
    app.use(express.static(options.rendererDir, { index: 'index.html' }));
  } else {
    app.get('/', (_req, res) => void res.type('html').send(PLACEHOLDER));
  }
  app.use((_req, _res, next) => next(new DomainError('not_found', 'no such endpoint')));
  app.use(errors);
  return { app, listener: apiFirst(app, door, api, errors), openapi, clientAddress: clientAddress(app.get('trust proxy fn') as ProxyTrust) };
}

/**
 * The API's route registry: JSON bodies read within the size and depth limits, the principal the
 * auth middleware set, the operator role from the accounts.
 */
function createApiRegistry(services: ApiServices, options: ApiOptions, metrics: OpsMetrics): RouteRegistry {
  const json = express.json({ limit: options.bodyLimitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  return createRouteRegistry({
    idempotency: services.idempotency,
    onIdempotencyWait: () => metrics.observeIdempotencyWait(),
    validateResponses: options.validateResponses ?? false,
    readJson: (req, res) => new Promise((resolve, reject) => json(req, res, (err?: unknown) => {
      if (err) return reject(err);
      const deep = tooDeep(req.body);
      return deep ? reject(deep) : resolve(req.body);
    })),
    requirePrincipal: (req) => {
      const res = req.res!;
      if (res.locals.principal) return res.locals.principal as Principal;
      throw (res.locals.authError as DomainError | undefined) ?? new DomainError('unauthorized', 'X-API-KEY and X-ACCOUNT-ID headers are required');
    },
    requireOperator: async (principal) => {
      if (!(await services.accounts.isOperator(principal.accountId))) {
        throw new DomainError('forbidden', 'this installation-wide operation needs the operator role (the local account, or an account named by the administrator)');
      }
    },
  });
}

/** Registers every route of the API; a route whose optional service is absent is left out. */
export function registerApiRoutes(registry: RouteRegistry, services: ApiServices, options: Pick<ApiOptions, 'port' | 'maxAudioBytes' | 'streamTokenTtlSeconds'>): void {
  registerNoteRoutes(registry, { notes: services.notes, styles: services.styles });
  registerUtilityRoutes(registry, { extraction: services.extraction, macros: services.macros });
  registerTemplateRoutes(registry, { templates: services.templates });
  registerTranscriptionRoutes(registry, {
    transcriptions: services.transcriptions,
    accounts: services.accounts,
    maxAudioBytes: options.maxAudioBytes,
    streamTokenTtlSeconds: options.streamTokenTtlSeconds,
    validateWebhookUrl: (accountId, url) => services.webhooks.requireRegistered(accountId, url),
  });
  registerWebhookRoutes(registry, { webhooks: services.webhooks });
  registerMacroLibraryRoutes(registry, { library: services.macroLibrary });
  registerAuditRoutes(registry, { audit: services.audit });
  registerStorageRoutes(registry, { storage: services.storage });
  registerVisitRoutes(registry, { visits: services.visits });
  if (services.signIn) registerSignInRoutes(registry, { signIn: services.signIn, port: options.port });
  registerSettingsRoutes(registry, { engines: services.engines, isOperator: (accountId) => services.accounts.isOperator(accountId) });
  if (services.models) registerModelRoutes(registry, { models: services.models });
  if (services.engineStatus) registerEngineRoutes(registry, { status: services.engineStatus });


  registerCodingRoutes(registry, { coding: services.coding, visits: services.visits });
  if (services.codeEditions) registerCodingEditionRoutes(registry, { editions: services.codeEditions });
  if (services.deadLetters) registerJobRoutes(registry, { deadLetters: services.deadLetters });
  if (services.voiceAdaptation) registerVoiceAdaptationRoutes(registry, { adaptation: services.voiceAdaptation, maxAudioBytes: options.maxAudioBytes });
  registerBackupRoutes(registry, { backups: services.backups ?? createBackupService({ keep: 1, intervalHours: 0 }) });
}

/** Paths under the API's versions (`/v1`, `/v1/…`, `/v2/…`). */
const API_PATH = /^\/v[12](?:\/|$)/;

/**
 * The server's request listener. A `/v1` or `/v2` request is dressed as express dresses one (its
 * request and response prototypes, `locals`) and goes through the front door and the API
 * directly, without express's router walk; the interface, docs and ops endpoints go to `app`.
 * The same middleware answers either way, so both paths give the same headers, logs, audit
 * entries and errors (issue 19: the router's walk was a visible share of each API request).
 */
function apiFirst(app: Express, door: RequestHandler, api: RequestHandler, errors: ErrorRequestHandler): RequestListener {
  const fail = (err: unknown, req: Request, res: Response): void => {
    void errors(err, req, res, () => undefined);
  };
  const notFound = (): DomainError => new DomainError('not_found', 'no such endpoint');
  return (incoming, outgoing) => {
    if (!API_PATH.test(pathOf(incoming.url))) {
      app(incoming as Request, outgoing as Response);
      return;
    }
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = req.url;
    req.baseUrl = '';
    try {
      door(req, res, (doorErr?: unknown) => {
        if (doorErr) return fail(doorErr, req, res);
        try {
          api(req, res, (apiErr?: unknown) => fail(apiErr ?? notFound(), req, res));
        } catch (err) {
          fail(err, req, res);
        }
      });
    } catch (err) {
      fail(err, req, res);
    }
  };
}

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clindoc</title></head>
<body><main><h1>Clindoc</h1><p>The local Clinical Documentation API is running. The interface has not been built
(<code>npm run build:renderer</code>). API reference: <a href="/docs">/docs</a>.</p></main></body></html>`;
