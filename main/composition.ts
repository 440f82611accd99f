import type { Server } from 'node:http';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger, type DestinationStream } from 'pino';
import type { ClindocConfig } from './config.js';
import type { Db } from './store/database.js';
import { createSqliteDeadLetters } from './store/job-store.js';
import { createSqliteAuthFailures } from './store/auth-failures-store.js';
import type { RateWindows } from './services/rate-windows.js';
import type { DataProtection } from './store/crypto/index.js';
import { createAuditService, type AuditService } from './services/audit/audit-service.js';
import { createRetentionSweeper, type RetentionSweeper } from './jobs/retention.js';
import { createAccountService, type AccountService } from './services/accounts/account-service.js';
import { createNoteService, NOTE_JOB } from './services/notes/note-service.js';
import { createStyleService } from './services/notes/style-service.js';
import { createTemplateService } from './services/templates/template-service.js';
import { createTranscriptionService, TRANSCRIPTION_JOB } from './services/transcriptions/transcription-service.js';
import { createTranscriptionPipeline } from './services/transcriptions/pipeline.js';
import { createEngineSettingsService } from './services/transcriptions/engine-settings.js';
import { createMacroLibraryService } from './services/macros/library-service.js';
import { createWebhookService } from './services/webhooks/webhook-service.js';

import type { NoteWriter, StyleWriter } from './services/notes/ports.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import { engineUnavailable } from './services/errors.js';

import { createIcdCoder, type IcdCoder } from './services/coding/icd-coder.js';
import { loadCodeTable } from './engines/coding/code-table.js';
import { importCodeSetBytes, listCodeSets } from './engines/coding/import.js';
import { createCodeEditionsService } from './services/coding/code-editions.js';
import { readCodingLexicon } from './engines/coding/lexicon-file.js';
import { createJobRunner, type JobRunner } from './jobs/job-runner.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './jobs/webhook-dispatcher.js';
import { createWebhookDestinations, type Resolve } from './jobs/webhook-destination.js';
import { operatorManagedCodeEditions, operatorManagedModels } from './services/models/operator-managed.js';
import { confineModelImports } from './model-import-folders.js';
import { createApiApp, recordLockout } from './server/app.js';
import { createStorageUsageService } from './services/storage-usage/storage-usage-service.js';
import { createVisitService } from './services/visits/visit-service.js';
import { signatureOf } from './services/notes/note-signing.js';
import { createSignInLinks } from './services/accounts/sign-in-links.js';

import { createLlmStyleWriter } from './engines/text/llm/style-writer.js';
import { createFfmpegDecoder, createStreamDecoder } from './engines/audio/index.js';
import { clinicalModelStatus } from './engines/speech/pocketsphinx/index.js';

import { missingAppFiles, readExtractionPrompt } from './app-files.js';
import { localCredentialsPath, readLocalCredentials } from './local-credentials.js';
import { createEnergyEndpointer, createRobustVad, createSileroVad, type RobustVad } from './engines/vad/index.js';
import { createClusteringDiarizer } from './engines/diarization/index.js';

import { attachStreaming, type StreamingHandle } from './server/streaming/attach.js';
import { createAuthThrottle } from './services/auth-throttle/auth-throttle.js';
import { createSharedThrottle } from './services/auth-throttle/shared-throttle.js';
import { composeModelManager, createDownloadRunner, loadEngineQuality, MODEL_PULL_JOB } from './compose-models.js';
import { createEngineStatusService } from './services/engines/engine-status.js';

import { composeEngines } from './compose-engines.js';


import { createBackupService, type BackupService } from './services/backup/backup-service.js';
import { createBackupFolder } from './store/backup-folder.js';
import { createBackupScheduler, type BackupScheduler } from './jobs/backup-scheduler.js';
import { createListener, stopAccepting } from './server/listener.js';
import { composeOps, sqliteOpsStorage } from './compose-ops.js';
import { composeStores } from './compose-stores.js';
import { composeCompute } from './compose-compute.js';
import { offloadedCoding, offloadedExtraction, offloadedMacros, offloadedNoteWriter, offloadedStyleWriter, type TextEngineRef } from './services/compute/offloaded.js';
import type { DeadLetterSource } from './server/routes/jobs.js';


export const VERSION = '0.1.0';

/**
 * On PostgreSQL, how often a running instance takes back webhook deliveries that a gone instance
 * left sending (its lease ended): a killed worker's deliveries go out within this, not at the next restart.
 */
const WEBHOOK_RECOVERY_MS = 30_000;

export interface Clindoc {
  config: ClindocConfig;
  logger: Logger;
  db: Db;
  server: Server;
  accounts: AccountService;
  jobs: JobRunner;
  webhooks: WebhookDispatcher;
  audit: AuditService;
  retention: RetentionSweeper;
  /** Backups into CLINDOC_BACKUP_DIR (on request and on schedule). */
  backups: BackupService;
  backupScheduler: BackupScheduler;
  /** Key ring and column cipher of this data folder. */
  protection: DataProtection;
  /** Set when this start created the first (local) account. */
  localCredentials?: { accountId: string; apiKey: string };
  /**
   * A one-click sign-in link to the interface (`http://127.0.0.1:PORT/#token=…`): a single-use
   * token valid ten minutes, exchanged by the page for the local credentials. After `listen()`.
   */
  signInLink(): string;
  /** Binds the port and starts background work; resolves with the bound port. */
  listen(): Promise<number>;
  /**
   * Stops accepting, lets running jobs finish (or stay queued), closes the database. With
   * `graceMs` (SIGTERM: CLINDOC_DRAIN_SECONDS) `/readyz` answers 503 at once and requests in
   * flight and running jobs get that long; without, connections are cut at once.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface ComposeOptions {
  /** Log destination (tests capture logs); default stdout. */
  logDestination?: DestinationStream;
  /** Webhook retry delays (tests use short ones). */
  webhookRetryDelaysMs?: number[];
  /** Resolver of webhook host names (tests name hosts that resolve to chosen addresses); default the system's. */
  webhookResolve?: Resolve;
  /** Create the local account on first start (default true). */
  createLocalAccount?: boolean;
  /**
   * Master encryption key from the OS keychain (the desktop app reads it with Electron
   * safeStorage). Wins over CLINDOC_ENCRYPTION_KEY and the generated key file.
   */
  keychainKey?: Buffer;
  /** Clock of the failed-authentication throttle (tests move time instead of waiting); default Date.now. */
  throttleClock?: () => number;
  /** Rate-limit counters instead of the configured ones (benchmarks compare them); default memory, or the database with CLINDOC_DATABASE_URL. */
  rateWindows?: RateWindows;
  /** Check every API answer against its route's success schema, a mismatch a logged 500 (the tests' servers); default off. */
  validateResponses?: boolean;
}

export { localCredentialsPath, readLocalCredentials } from './local-credentials.js';

/**
 * The one composition of Clindoc: configuration in, a wired server out. The Electron main
 * process, `npm run serve` and the CLI all come through here, so they are the same program.
 * Resolves once storage is open and migrated and what start-up reads from it (the local account,
 * the installed models) has been read; nothing listens until `listen()`.
 */
export async function createClindoc(config: ClindocConfig, options: ComposeOptions = {}): Promise<Clindoc> {
  // Asynchronous (sync: false): a request's log line never waits for the write; pino flushes what is
  // still buffered synchronously when the process exits, a fatal error's exit included.
  const logger = pino({ level: config.logLevel, base: { app: 'clindoc' } }, options.logDestination ?? pino.destination({ dest: 1, sync: false }));
  // Storage: the device's SQLite, the data keys, audio, and (clinic mode) PostgreSQL (compose-stores.ts).
  const { db, protection, blobs, shared, stores } = await composeStores(config, logger, options.keychainKey);
  const { ring } = protection;
  // This process owns the SQLite file: Idempotency-Key claims still pending are its last run's.
  if (!shared) await stores.idempotency.abandonClaims?.();
  const audit = createAuditService({
    store: stores.audit, retention: stores.retention, defaultRetentionDays: config.retentionDays,
    onError: (err) => logger.error({ errName: (err as Error)?.name }, 'audit event could not be written'),
  });
  const { promptsDir } = config.resources;
  // Engines by name (configured ones and installed models), built on first use and unloaded when
  // idle; each account's choice applies to its next dictation, upload and note (compose-engines.ts).
  const engineRegistry = composeEngines(config, {
    logger, installedModels: () => modelManager.service.installed(), batchVad: () => batchVad(),
    pocketsphinxFiles: { medical: config.asrMedical, resourcesDir: config.resources.asrDir },
    // A note whose chosen model or server fails is written by the embedded writer, in the compute pool.
    fallbackNoteWriter: () => offloadedNoteWriter(compute),
  });
  // Styles, extraction and coding follow each account's note engine (issue 26 point 5): an account
  // that chose the embedded writer sends nothing to a language model; one that chose a model or
  // server has its templates, text-to-JSON and code proposals from that engine.
  const textEngineOf = async (accountId?: string): Promise<TextEngineRef> => {
    const name = accountId ? await engines.resolveNotes(accountId) : engineRegistry.defaultTextEngine;
    return { name, engine: engineRegistry.describe('text', name)?.engine ?? name };
  };
  const styleWriters = new Map<string, StyleWriter>();
  // The embedded writers compute in the compute pool (compose-compute.ts); model writers wait on their model here.
  const writer = async (accountId: string): Promise<NoteWriter> => {
    const name = await engines.resolveNotes(accountId);
    return name === 'embedded' ? offloadedNoteWriter(compute) : engineRegistry.noteWriter(name, { policy: () => engines.failurePolicy(accountId) });
  };
  const styles = async (accountId?: string): Promise<StyleWriter> => {
    const { name } = await textEngineOf(accountId);
    let styleWriter = styleWriters.get(name);
    if (!styleWriter) {
      const model = engineRegistry.languageModel(name);
      styleWriters.set(name, (styleWriter = model ? createLlmStyleWriter(model, { promptsDir }) : offloadedStyleWriter(compute)));
    }
    return styleWriter;
  };

  // Bundled files are found from the installation, not the working directory; an absent one is a
  // warning with a fallback, never a failed start or a failed transcription.
  const pocketsphinxFiles = { medical: config.asrMedical, resourcesDir: config.resources.asrDir };
  const clinicalLanguageModel = clinicalModelStatus(pocketsphinxFiles);
  if (clinicalLanguageModel.reason === 'missing') {
    logger.warn({ path: clinicalLanguageModel.path }, 'clinical language model missing: the embedded recogniser uses the general English model');
  }
  // The prompts are bundled; their absence is worth a warning when a model is configured (an installed one can be chosen later too).
  const languageModelPossible = engineRegistry.defaultTextEngine !== 'embedded';
  for (const m of missingAppFiles({ rendererDir: config.rendererDir, ...(languageModelPossible ? { promptsDir } : {}) })) {
    logger.warn({ path: m.path }, `bundled ${m.what} missing: ${m.consequence}`);
  }
  // Services never read files: the extraction model's instructions are read here and handed in.
  // Read whether or not a model is configured now: an account may choose one it installs later.
  const extractionPrompt = readExtractionPrompt(promptsDir, logger, languageModelPossible);
  // CPU-bound work runs in worker threads under CLINDOC_WORK_BUDGET_MS; they ask this thread for the model and stored notes.
  const compute = composeCompute(config, {
    logger, languageModel: (name) => engineRegistry.languageModel(name), ...(extractionPrompt !== undefined ? { extractionPrompt } : {}),
    notes: { get: (accountId, noteId) => notes.get(accountId, noteId) },
  });

  let vad: ReturnType<typeof createSileroVad> | undefined;
  const silero = (): ReturnType<typeof createSileroVad> => (vad ??= createSileroVad({ threshold: config.vadThreshold }));
  // Batch segmentation and diarization use Silero plus an energy detector, so speech Silero does
  // not hear (narrow-band, codec-processed) is still recognised and attributed; live endpointing keeps Silero.
  let robustVad: RobustVad | undefined;
  const batchVad = (): RobustVad => (robustVad ??= createRobustVad({ model: silero(), minCoverage: config.vadMinCoverage }));
  const recognizer = (engine = config.asrEngine): SpeechRecognizer => engineRegistry.recognizer(engine);

  const plainPipeline = createTranscriptionPipeline({ decoder: createFfmpegDecoder({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, timeoutMs: config.ffmpegTimeoutMs, maxSeconds: config.maxAudioSeconds }), recognizer, vad: batchVad, diarizer: createClusteringDiarizer() });
  // Audio is encrypted at rest; the engines get a short-lived private plaintext copy.
  const pipeline: typeof plainPipeline = async (path, opts) => {
    const key = blobs.keyOf(path);
    const started = performance.now();
    const result = await (key ? blobs.withPlaintext(key, (plain) => plainPipeline(plain, opts)) : plainPipeline(path, opts));
    ops.metrics.observeRealTime(result.generatedBy?.engine ?? config.asrEngine, result.duration, (performance.now() - started) / 1000);
    return result;
  };

  let jobs: JobRunner | undefined;
  const enqueue = (kind: string, accountId: string, resourceId: string): Promise<void> => jobs!.enqueue(kind, accountId, resourceId);
  let dispatcher: WebhookDispatcher | undefined;
  // One destination policy (CLINDOC_WEBHOOK_ALLOW) for registration and for every delivery attempt.
  const destinations = createWebhookDestinations({ allow: config.webhookAllow, ...(options.webhookResolve ? { resolve: options.webhookResolve } : {}) });
  const webhooks = createWebhookService({ store: stores.webhooks, destinations });
  // A note's or transcription's final write carries its webhook event into the outbox (one
  // transaction); the dispatcher turns it into deliveries. Told at once, it need not wait for its next pass.
  const wakeDispatcher = (): void => dispatcher?.wake();
  const accounts = createAccountService({ store: stores.accounts, operators: config.operatorAccounts });
  let downloads: JobRunner | undefined;
  const modelManager = composeModelManager(config, db, logger, {
    enqueue: (kind, accountId, id) => downloads!.enqueue(kind, accountId, id),
    inUse: (id) => engineRegistry.inUse(id), unload: async (id) => void (await engineRegistry.unload(id)),
  });

  downloads = createDownloadRunner(db, logger, () => modelManager.service, config.jobConcurrency > 0 ? 1 : 0);
  // The engines ask for installed models at every use and cannot wait: the service keeps the list.
  await modelManager.service.refreshInstalled();

  const notes = createNoteService({
    notes: stores.notes, templates: stores.templates, writer, enqueue,
    events: { noteFinished: wakeDispatcher },
  });
  const engines = createEngineSettingsService({
    store: stores.engineSettings, defaultEngine: config.asrEngine,
    available: () => engineRegistry.speechNames(),
    clinicalLanguageModel,
    notes: { defaultEngine: engineRegistry.defaultTextEngine, available: () => engineRegistry.textNames() },
    warm: (task, name) => engineRegistry.warm(task, name),
    defaultFailurePolicy: config.engineFailure,
    testServer: (task, server) => engineRegistry.testServer(task, server),
  });
  // Servers accounts set up in Settings are engines too, found by name at each use.
  engineRegistry.useAccountServers((name, task) => engines.serverByName(name, task));

  const transcriptions = createTranscriptionService({
    engines, store: stores.transcriptions, blobs: blobs, pipeline: () => pipeline, enqueue, maxAudioBytes: config.maxAudioBytes,
    events: { transcriptionFinished: wakeDispatcher },
  });
  const handlers = {
    [NOTE_JOB]: { run: (id: string) => notes.generate(id), giveUp: (id: string, message: string) => notes.fail(id, message) },
    [TRANSCRIPTION_JOB]: { run: (id: string) => transcriptions.process(id), giveUp: (id: string, message: string) => transcriptions.fail(id, message) },
  };
  // An API instance queues work and never runs it; workers and the desktop run it.
  const works = config.role !== 'api';
  const concurrency = works ? config.jobConcurrency : 0;
  // On PostgreSQL the queue is pg-boss, shared by every instance; on SQLite the durable table runner.
  // The queue works through the stores' pool, which closes last: a request still in flight when a
  // drain stops the queue (a note posted as SIGTERM came) can still queue its job, as on SQLite.
  // Each engine has its own job slots (CLINDOC_JOB_CONCURRENCY each): a hung server holds only its own.
  const laneOf = async (job: { kind: string; accountId: string }): Promise<string> =>
    job.kind === NOTE_JOB ? `text:${await engines.resolveNotes(job.accountId)}` : job.kind === TRANSCRIPTION_JOB ? `speech:${await engines.resolve(job.accountId)}` : job.kind;
  const pgQueue = shared
    ? (await import('./jobs/pg-job-queue.js')).createPgJobQueue({
      pool: shared.pool, handlers, logger, concurrency, maxAttempts: config.jobMaxAttempts, expireInSeconds: config.jobExpireSeconds, laneOf,
      // pg-boss takes expired jobs back at each maintenance pass: as often as the expiry, so a dead worker's job returns on time.
      maintenanceIntervalSeconds: Math.min(30, config.jobExpireSeconds),
    })
    : undefined;
  jobs = pgQueue ?? createJobRunner({ store: stores.jobs, logger, concurrency, maxAttempts: config.jobMaxAttempts, handlers, laneOf });
  const sqliteJobs = sqliteOpsStorage(db);
  const deadLetters: DeadLetterSource = pgQueue
    ? async (accountId, limit) => (await pgQueue.deadLetters(accountId, limit)).map(({ accountId: _a, ...d }) => d)
    : createSqliteDeadLetters(db, [MODEL_PULL_JOB]);
  dispatcher = createWebhookDispatcher({
    store: stores.webhooks, logger, timeoutMs: config.webhookTimeoutMs, destinations, drainOutbox: () => webhooks.drainOutbox(),
    ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
    // On a shared database another instance may die mid-send while this one runs on.
    ...(shared ? { recoverEveryMs: WEBHOOK_RECOVERY_MS } : {}),
    resourceState: async (event, accountId, resourceId) => {
      if (event.startsWith('note_generation')) {
        const note = await stores.notes.get(accountId, resourceId);
        return note ? { status: note.status } : undefined;
      }
      const t = await stores.transcriptions.get(accountId, resourceId);
      return t ? { status: t.status } : undefined;
    },
  });

  const templates = createTemplateService({ store: stores.templates });
  const macroLibrary = createMacroLibraryService({ store: stores.macros });
  // The code table is read at the first coding request, not at start: most runs never code.
  let icdCoder: IcdCoder | undefined;
  const coder = (): IcdCoder => {
    if (icdCoder) return icdCoder;
    const table = loadCodeTable({ bundledDir: config.resources.codesDir, dataDir: config.dataDir });
    if (!table) throw engineUnavailable('coding: no ICD-10-CM code set (bundled resources/codes, or clindoc codes import)');
    icdCoder = createIcdCoder(table, readCodingLexicon(join(config.resources.codesDir, 'synonyms.json')));
    for (const warning of icdCoder.warnings) logger.warn({ edition: table.edition }, warning);
    return icdCoder;
  };
  // Settings imports a CMS release with the CLI's import module; the next coding request reads the newest edition.
  const codeEditions = createCodeEditionsService({
    store: {
      list: () => listCodeSets(config.dataDir, config.resources.codesDir),
      importRelease: (order, tabular, edition) => importCodeSetBytes(config.dataDir, order, tabular, edition),
    },
    reload: () => {
      icdCoder = undefined;
      compute.recycle(); // the workers' coders read the new edition
    },
  });
  const coding = offloadedCoding(compute, () => coder().edition, textEngineOf);
  let boundPort = config.port;
  const signIn = createSignInLinks({
    credentials: () => readLocalCredentials(config.dataDir),
    valid: (c) => accounts.authenticate(c.apiKey, c.accountId).then(() => true, () => false),
  });
  const visits = createVisitService({
    store: stores.visits,
    links: {
      note: async (accountId, id) => (await stores.notes.get(accountId, id)) !== undefined,
      transcription: async (accountId, id) => (await stores.transcriptions.get(accountId, id)) !== undefined,
      noteState: async (accountId, id) => {
        const note = await stores.notes.get(accountId, id);
        if (!note) return undefined;
        if (note.status !== 'STATUS_DONE') return { status: note.status === 'STATUS_FAILED' ? 'failed' : 'pending', at: note.createdAt };
        return { status: signatureOf(note).status, at: note.signedAt ?? note.completedAt ?? note.createdAt };
      },
    },
  });
  const backups = createBackupService({
    // Backups of a clinic's PostgreSQL are the database's own (pg_dump, docs/deploy.md).
    ...(config.backupDir && !shared ? { folder: createBackupFolder(config.backupDir, { db, dataDir: config.dataDir, ring, appVersion: VERSION }) } : {}),
    keep: config.backupKeep, intervalHours: config.backupIntervalHours,
  });
  const backupScheduler = createBackupScheduler({ backups, logger });
  // One throttle for REST and the streaming socket: a guess counts wherever it is made.
  const authThrottle = createAuthThrottle(config.authThrottle, options.throttleClock);
  // On a clinic's database every API instance counts wrong keys for all of them; on SQLite the same
  // counters are kept in the file, so a restart does not forget a lockout (issue 29).
  const failureStore = shared
    ? (await import('./store/pg/auth-failures.js')).createPgAuthFailures(shared.pool, options.throttleClock)
    : createSqliteAuthFailures(db, options.throttleClock);
  const sharedThrottle = createSharedThrottle(failureStore, config.authThrottle, options.throttleClock);
  // Operations (routes/ops.ts): the app reaches the database, the queue and the engines only through these callbacks.
  const ops = composeOps(config, {
    ping: shared ? () => shared.ping() : sqliteJobs.ping,
    // Shared notes and transcriptions on PostgreSQL, beside this device's model downloads.
    queue: pgQueue
      ? async () => [
        ...Object.entries(await pgQueue.stats()).map(([kind, d]) => ({ kind, queued: d.queued, running: d.active, oldestQueuedSeconds: d.oldestQueuedAgeSeconds })),
        ...(await sqliteJobs.queue()).filter((q) => q.kind === MODEL_PULL_JOB),
      ]
      : sqliteJobs.queue,
  }, engineRegistry);
  const secure = Boolean(config.tls) || config.behindTlsProxy;
  // API instances on one database count one window per client (loaded, like the stores, only in clinic mode).
  const rateWindows = options.rateWindows ?? (shared ? (await import('./store/pg/rate-windows.js')).createPgRateWindows(shared.pool) : undefined);
  const { listener, clientAddress } = createApiApp(
    {
      accounts, notes, styles: createStyleService({ writer: styles }), templates, transcriptions,
      extraction: offloadedExtraction(compute, textEngineOf), macros: offloadedMacros(compute),
      deadLetters, macroLibrary, webhooks, idempotency: stores.idempotency, audit, engines, authThrottle, ...(sharedThrottle ? { sharedThrottle } : {}), backups, coding,
      // A clinic's instances each keep their own models and code sets, installed by the operator.
      codeEditions: shared ? operatorManagedCodeEditions(codeEditions) : codeEditions,
      models: shared ? operatorManagedModels(modelManager.service) : confineModelImports(modelManager.service, config.modelImportDirs),
      engineStatus: createEngineStatusService({
        settings: engines, describe: (task, name) => engineRegistry.describe(task, name), quality: loadEngineQuality(config, (m) => logger.warn(m)),
        health: (task, name) => engineRegistry.health(task, name),
        modelReading: extractionPrompt !== undefined,
      }),


      visits, signIn,
      storage: createStorageUsageService({
        reader: stores.storageUsage, notes, transcriptions, templates, macros: macroLibrary, webhooks,
        visits: { list: (accountId, limit, cursor) => visits.list(accountId, { limit, ...(cursor ? { cursor } : {}) }), delete: visits.delete },
      }),
    },
    {
      ...(options.validateResponses ? { validateResponses: true } : {}),
      logger, port: () => boundPort, host: config.host, version: VERSION, bodyLimitBytes: config.bodyLimitBytes, maxAudioBytes: config.maxAudioBytes,
      rateLimit: { limit: config.rateLimit, windowSeconds: config.rateWindowSeconds, ...(rateWindows ? { windows: rateWindows } : {}) }, allowedOrigins: config.allowedOrigins,
      allowedHosts: config.allowedHosts, corsOrigins: config.corsOrigins, streamTokenTtlSeconds: config.streamTokenTtlSeconds,
      rendererDir: config.rendererDir, secure, ops, serveApi: config.role !== 'worker', ...(config.behindTlsProxy ? { trustProxy: config.trustedProxies } : {}),
    },
  );
  const server = createListener(listener, config.tls, {
    requestTimeoutMs: config.requestTimeoutSeconds * 1000, headersTimeoutMs: 30_000, maxConnections: config.maxConnections,
  });
  // Idle keep-alive connections stay open longer than clients and proxies keep theirs (Node's fetch: 4 s,
  // nginx upstream keepalive: 60 s), so the client always closes first and never sends a request on a
  // socket the server is closing at that moment (an ECONNRESET seen under load with the 5 s default).
  server.keepAliveTimeout = 65_000;
  let streaming: StreamingHandle | undefined;
  const retention = createRetentionSweeper({
    retention: stores.retention, notes: stores.notes, transcriptions: stores.transcriptions, visits: stores.visits, blobs: blobs, idempotency: stores.idempotency,
    audit, logger, defaultDays: config.retentionDays, intervalMs: config.retentionSweepSeconds * 1000,
  });

  let localCredentials: { accountId: string; apiKey: string } | undefined;
  // A clinic server's accounts are made with `clindoc accounts create`, never on first start.
  if (options.createLocalAccount ?? !shared) {
    const created = await accounts.ensureLocalAccount();
    if (created) {
      localCredentials = { accountId: created.account.id, apiKey: created.apiKey };
      const path = localCredentialsPath(config.dataDir);
      writeFileSync(path, JSON.stringify(localCredentials, null, 2), { mode: 0o600 });
      chmodSync(path, 0o600);
    } else if (!shared) {
      // A desktop's local account made before the operator role existed holds it too (issue 29).
      const local = readLocalCredentials(config.dataDir);
      if (local) await accounts.setOperator(local.accountId, true).catch(() => undefined);
    }
  }

  const clindoc: Clindoc = {
    config, logger, db, server, accounts, jobs, webhooks: dispatcher, audit, retention, protection, backups, backupScheduler,
    ...(localCredentials ? { localCredentials } : {}),
    signInLink() {
      // A wildcard listen address is reached on loopback; the page's origin must be the one the guard accepts.
      const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
      return `${config.tls ? 'https' : 'http'}://${host}:${boundPort}/#token=${signIn.issue().token}`;
    },
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => resolve());
      });
      const address = server.address();
      boundPort = typeof address === 'object' && address ? address.port : config.port;
      streaming = attachStreaming({
        server, logger, accounts, port: () => boundPort, allowedOrigins: [...config.allowedOrigins, ...config.corsOrigins],
        allowedHosts: config.allowedHosts, secure, clientAddress, recognizer, liveEngine: (accountId) => engines.resolve(accountId), vad: silero, fallbackEndpointer: createEnergyEndpointer,

        authThrottle: { throttle: authThrottle, ...(sharedThrottle ? { shared: sharedThrottle } : {}), onLockout: (event) => recordLockout({ accounts, audit }, event) },
        createDecoder: (o) => createStreamDecoder({ ...o, ffmpegPath: config.ffmpegPath }),
        limits: {
          maxSessionsPerAccount: config.streamMaxSessionsPerAccount, idleTimeoutSeconds: config.streamIdleTimeoutSeconds,
          maxSessionSeconds: config.streamMaxSessionSeconds, maxMessageBytes: config.streamMaxMessageBytes,
        },
      });
      // Each queue first puts back what a previous exit left running, then takes work.
      await jobs!.start();
      await downloads!.start();
      // Webhooks are delivered and retention swept where jobs run (workers and the desktop).
      if (works) {
        await dispatcher!.start();
        retention.start();
      }
      // Where notes are written here by the embedded writer, a worker loads it now, not at the first note.
      if (works && config.jobConcurrency > 0 && engineRegistry.defaultTextEngine === 'embedded') compute.prepare(['writeNote']);
      backupScheduler.start();
      logger.info({ host: config.host, port: boundPort, role: config.role }, 'local API listening');
      return boundPort;
    },
    async close(options = {}) {
      const graceMs = options.graceMs ?? 0;
      ops.drain.begin(); // `/readyz` answers 503 from now on
      const listener = stopAccepting(server);
      await retention.stop();
      backupScheduler.stop();
      await streaming?.close();
      // Without a grace period (tests, the desktop app's quit) jobs keep the runner's own default.
      await Promise.all([listener.finish(graceMs), jobs!.stop(options.graceMs)]);
      modelManager.service.shutdown();
      await downloads!.stop();
      await dispatcher!.stop();

      await engineRegistry.close();
      await compute.close();

      // A backup being written reads the database to the end before it is closed.
      await backups.idle();
      try {
        stores.audit.flush?.(); // the trail's last batch (SQLite batches its writes; PostgreSQL writes each at once)
      } catch (err) {
        logger.error({ errName: (err as Error)?.name }, 'audit events could not be written before closing');
      }
      await shared?.close();
      db.close();
    },
  };
  return clindoc;
}
