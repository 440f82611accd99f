/**
 * Part of the one composition: the local API. The services the routes reach (built from the parts
 * composed before), the express app and its HTTP(S) listener, and the live-dictation socket attached
 * to that listener once it is bound. The app reaches storage, the queue and the engines only through
 * these services and the operations callbacks.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import type { ComposedEngines } from './compose-engine-choice.js';
import type { ComposedWriters } from './compose-writers.js';
import type { ComposedQueue, JobServices } from './compose-jobs.js';
import type { ComposedWebhooks } from './compose-webhooks.js';
import type { ComposedCoding } from './compose-coding.js';
import type { ComposedAccess } from './compose-access.js';
import type { ComposedRecords } from './compose-records.js';
import type { ComposedOps } from './compose-ops.js';
import { loadEngineQuality } from './compose-models.js';
import { confineModelImports } from './model-import-folders.js';
import type { AccountService } from './services/accounts/account-service.js';
import type { ComputePool } from './services/compute/ports.js';
import { offloadedExtraction, offloadedMacros } from './services/compute/offloaded.js';
import type { ModelService } from './services/models/model-service.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import type { VoiceAdaptationService } from './services/voice-adaptation/voice-adaptation-service.js';
import { operatorManagedCodeEditions, operatorManagedModels } from './services/models/operator-managed.js';
import { createStyleService } from './services/notes/style-service.js';
import { createTemplateService } from './services/templates/template-service.js';
import { createMacroLibraryService } from './services/macros/library-service.js';
import { createEngineStatusService } from './services/engines/engine-status.js';
import { createStorageUsageService } from './services/storage-usage/storage-usage-service.js';
import { createApiApp, recordLockout, type ApiServices } from './server/app.js';
import { createListener } from './server/listener.js';
import { attachStreaming, type StreamingHandle } from './server/streaming/attach.js';
import { createStreamDecoder } from './engines/audio/index.js';
import { createEnergyEndpointer } from './engines/vad/index.js';

/** What the routes are built from: every part composed before the API. */
export interface ApiParts {
  storage: Pick<ComposedStores, 'stores' | 'shared'>;
  accounts: AccountService;
  engines: ComposedEngines;
  writers: ComposedWriters;
  compute: ComputePool;
  work: JobServices;
  queue: Pick<ComposedQueue, 'deadLetters'>;
  webhooks: ComposedWebhooks;
  coding: ComposedCoding;
  access: ComposedAccess;
  records: ComposedRecords;
  models: ModelService;
  /** Whether the extraction model's instructions were found (engine status reports model reading). */
  modelReading: boolean;
  /** Learning the physician's voice (`/v1/speech/adaptation`). */
  voiceAdaptation?: VoiceAdaptationService;
}

export function apiServices(config: ClindocConfig, logger: Logger, p: ApiParts): ApiServices {
  const { stores, shared } = p.storage;
  const { notes, transcriptions } = p.work;
  const { audit, visits, backups } = p.records;
  const { authThrottle, sharedThrottle, signIn } = p.access;
  const templates = createTemplateService({ store: stores.templates });
  const macroLibrary = createMacroLibraryService({ store: stores.macros });
  const webhooks = p.webhooks.service;
  return {
    accounts: p.accounts, notes, transcriptions, templates, macroLibrary, webhooks, visits, audit, backups, authThrottle, sharedThrottle, signIn,
    ...(p.voiceAdaptation ? { voiceAdaptation: p.voiceAdaptation } : {}),
    styles: createStyleService({ writer: (accountId) => p.writers.styleWriter(accountId) }),
    extraction: offloadedExtraction(p.compute, p.engines.textEngineOf), macros: offloadedMacros(p.compute),
    deadLetters: p.queue.deadLetters, idempotency: stores.idempotency, engines: p.engines.settings, coding: p.coding.coding,
    // A clinic's instances each keep their own models and code sets, installed by the operator.
    codeEditions: shared ? operatorManagedCodeEditions(p.coding.codeEditions) : p.coding.codeEditions,
    models: shared ? operatorManagedModels(p.models) : confineModelImports(p.models, config.modelImportDirs),
    engineStatus: createEngineStatusService({
      settings: p.engines.settings, describe: (task, name) => p.engines.registry.describe(task, name), quality: loadEngineQuality(config, (m) => logger.warn(m)),
      health: (task, name) => p.engines.registry.health(task, name),
      modelReading: p.modelReading,
    }),
    storage: createStorageUsageService({
      reader: stores.storageUsage, notes, transcriptions, templates, macros: macroLibrary, webhooks, ...(p.voiceAdaptation ? { voice: p.voiceAdaptation } : {}),
      visits: { list: (accountId, limit, cursor) => visits.list(accountId, { limit, ...(cursor ? { cursor } : {}) }), delete: visits.delete },
    }),
  };
}

export interface ComposedApi {
  server: Server;
  /** The client's address under the app's proxy rule, for the streaming socket's upgrade requests. */
  clientAddress: (req: IncomingMessage) => string;
  /** Served over HTTPS (TLS here or a TLS proxy in front). */
  secure: boolean;
}

export function composeApi(config: ClindocConfig, logger: Logger, services: ApiServices, deps: {
  ops: ComposedOps; rateWindows?: ComposedAccess['rateWindows']; port: () => number; version: string;
  /** Check every answer against its route's success schema (the tests' servers). */
  validateResponses?: boolean;
}): ComposedApi {
  const secure = Boolean(config.tls) || config.behindTlsProxy;
  const { rateWindows } = deps;
  const { listener, clientAddress } = createApiApp(services, {
    ...(deps.validateResponses ? { validateResponses: true } : {}),
    logger, port: deps.port, host: config.host, version: deps.version, bodyLimitBytes: config.bodyLimitBytes, maxAudioBytes: config.maxAudioBytes,
    rateLimit: { limit: config.rateLimit, windowSeconds: config.rateWindowSeconds, ...(rateWindows ? { windows: rateWindows } : {}) }, allowedOrigins: config.allowedOrigins,
    allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins, streamTokenTtlSeconds: config.streamTokenTtlSeconds,
    rendererDir: config.rendererDir, secure, ops: deps.ops, serveApi: config.role !== 'worker', ...(config.behindTlsProxy ? { trustProxy: config.trustedProxies } : {}),
  });
  const server = createListener(listener, config.tls, {
    requestTimeoutMs: config.requestTimeoutSeconds * 1000, headersTimeoutMs: 30_000, maxConnections: config.maxConnections,
  });
  // Idle keep-alive connections stay open longer than clients and proxies keep theirs (Node's fetch: 4 s,
  // nginx upstream keepalive: 60 s), so the client always closes first and never sends a request on a
  // socket the server is closing at that moment (an ECONNRESET seen under load with the 5 s default).
  server.keepAliveTimeout = 65_000;
  return { server, clientAddress, secure };
}

/** Attaches live dictation (the WebSocket) to the bound listener; the lifecycle calls it in `listen()`. */
export function streamingStarter(
  config: ClindocConfig, logger: Logger,
  deps: {
    api: ComposedApi; accounts: AccountService; audit: ComposedRecords['audit']; engines: ComposedEngines; access: ComposedAccess; port: () => number;
    /** The recogniser of an engine for an account (its voice-adapted one where it has one). */
    recognizerFor?: (engine: string | undefined, accountId: string | undefined) => Promise<SpeechRecognizer>;
  },
): () => StreamingHandle {
  const { api, accounts, audit, engines, access } = deps;
  return () => attachStreaming({
    server: api.server, logger, accounts, port: deps.port, allowedOrigins: [...config.allowedOrigins, ...config.corsOrigins],
    allowedHosts: config.allowedHosts, secure: api.secure, clientAddress: api.clientAddress,
    recognizer: deps.recognizerFor ?? engines.recognizer, liveEngine: (accountId) => engines.settings.resolve(accountId), vad: engines.liveVad, fallbackEndpointer: createEnergyEndpointer,
    authThrottle: { throttle: access.authThrottle, shared: access.sharedThrottle, onLockout: (event) => recordLockout({ accounts, audit }, event) },
    createDecoder: (o) => createStreamDecoder({ ...o, ffmpegPath: config.ffmpegPath }),
    limits: {
      maxSessionsPerAccount: config.streamMaxSessionsPerAccount, idleTimeoutSeconds: config.streamIdleTimeoutSeconds,
      maxSessionSeconds: config.streamMaxSessionSeconds, maxMessageBytes: config.streamMaxMessageBytes,
    },
  });
}
