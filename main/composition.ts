import type { Server } from 'node:http';
import pino, { type Logger, type DestinationStream } from 'pino';
import type { ClindocConfig } from './config.js';
import type { Db } from './store/database.js';
import type { DataProtection } from './store/crypto/index.js';
import type { RateWindows } from './services/rate-windows.js';
import type { AuditService } from './services/audit/audit-service.js';
import { createAccountService, type AccountService } from './services/accounts/account-service.js';
import type { LocalCredentials } from './services/accounts/sign-in-links.js';
import type { BackupService } from './services/backup/backup-service.js';
import { noteWebhooks, type NoteService } from './services/notes/note-service.js';
import { transcriptionWebhooks } from './services/transcriptions/transcription-service.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { WebhookDispatcher } from './jobs/webhook-dispatcher.js';
import type { Resolve } from './jobs/webhook-destination.js';
import type { RetentionSweeper } from './jobs/retention.js';
import type { BackupScheduler } from './jobs/backup-scheduler.js';
import { lateBound } from './late-bound.js';
import { composeStores } from './compose-stores.js';
import { composeRecords } from './compose-records.js';
import { composeModels } from './compose-models.js';
import { composeEngineChoice } from './compose-engine-choice.js';
import { composeCompute, readBundledPrompts } from './compose-compute.js';
import { composeWriters } from './compose-writers.js';
import { composeOps } from './compose-ops.js';
import { composeWebhooks } from './compose-webhooks.js';
import { composeJobServices, composeQueue, jobLanes, type ComposedQueue } from './compose-jobs.js';
import { composeCoding } from './compose-coding.js';
import { composeVoiceAdaptation } from './compose-voice-adaptation.js';
import { composeAccess, ensureLocalAccount } from './compose-access.js';
import { apiServices, composeApi, streamingStarter } from './compose-api.js';
import { clindocLifecycle, type BoundPort, type ClindocLifecycle } from './compose-lifecycle.js';

export const VERSION = '0.1.0';

export interface Clindoc extends ClindocLifecycle {
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
  /**
   * Set when this start created the first (local) account. The key is stored only hashed: the
   * process entry points keep these in the owner-only file (`saveLocalCredentials`).
   */
  localCredentials?: LocalCredentials;
}

export interface ComposeOptions {
  /** Log destination (tests capture logs); default stdout. */
  logDestination?: DestinationStream;
  /** Webhook retry delays (tests use short ones). */
  webhookRetryDelaysMs?: number[];
  /** Resolver of webhook host names (tests name hosts that resolve to chosen addresses); default the system's. */
  webhookResolve?: Resolve;
  /** Create the local account on first start (default: on SQLite, not on a clinic's PostgreSQL). */
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

export { localCredentialsPath, readLocalCredentials, saveLocalCredentials } from './local-credentials.js';

/**
 * Asynchronous (sync: false): a request's log line never waits for the write; pino flushes what is
 * still buffered synchronously when the process exits, a fatal error's exit included.
 */
function createLogger(config: ClindocConfig, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, base: { app: 'clindoc' } }, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * The one composition of Clindoc: configuration in, a wired server out. The Electron main
 * process, `npm run serve` and the CLI all come through here, so they are the same program.
 * Resolves once storage is open and migrated and what start-up reads from it (the local account,
 * the installed models) has been read; nothing listens until `listen()`.
 *
 * Each step takes only what the steps before it made. Three ports close the real cycles, each bound
 * once both sides exist and before anything runs (late-bound.ts): the services enqueue into a queue
 * built from their jobs; compute workers read stored notes through the note service, whose writers
 * compute in those workers; sign-in links read the local account, which is made last so that a start
 * that fails makes none.
 */
export async function createClindoc(config: ClindocConfig, options: ComposeOptions = {}): Promise<Clindoc> {
  const logger = createLogger(config, options.logDestination);
  // Storage: the device's SQLite, the data keys, audio, and (clinic mode) PostgreSQL.
  const storage = await composeStores(config, logger, options.keychainKey);
  const { db, shared, stores } = storage;
  const records = composeRecords(config, logger, storage, VERSION);
  const accounts = createAccountService({ store: stores.accounts, operators: config.operatorAccounts });
  // Installed models and their downloads (a job runner of their own), then the engines that use them.
  const models = await composeModels(config, db, logger);
  const engines = composeEngineChoice(config, logger, stores.engineSettings, models);
  const { extractionPrompt } = readBundledPrompts(config, logger, engines.registry.defaultTextEngine);

  // The ports that close the cycles (above), each bound below once both of its sides exist.
  const queue = lateBound<ComposedQueue>('job queue');
  const noteReader = lateBound<Pick<NoteService, 'get'>>('note service');
  const localAccount = lateBound<LocalCredentials | undefined>('local account');
  // CPU-bound work runs in worker threads under CLINDOC_WORK_BUDGET_MS; they ask this thread for the model and stored notes.
  const compute = composeCompute(config, {
    logger, languageModel: (name) => engines.registry.languageModel(name), ...(extractionPrompt !== undefined ? { extractionPrompt } : {}),
    notes: { get: (accountId, noteId) => noteReader.get().get(accountId, noteId) },
  });
  const writers = composeWriters(config, engines, compute);
  // Operations (routes/ops.ts): the app reaches the database, the queue and the engines only through these callbacks.
  const ops = composeOps(config, { ping: () => queue.get().opsStorage.ping(), queue: () => queue.get().opsStorage.queue() }, engines.registry);
  const webhooks = composeWebhooks(config, logger, stores.webhooks, [noteWebhooks(stores.notes), transcriptionWebhooks(stores.transcriptions)], {
    shared: shared !== undefined, ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}), ...(options.webhookResolve ? { resolve: options.webhookResolve } : {}),
  });
  // Voice adaptation (issue 27 point 9): an account's own adapted recogniser, for its batch and live recognition.
  const voice = composeVoiceAdaptation(config, logger, { storage, engines, enqueue: (kind, accountId, resourceId) => queue.get().runner.enqueue(kind, accountId, resourceId) });
  const work = composeJobServices(config, {
    storage, engines, writers, metrics: ops.metrics, wakeWebhooks: () => webhooks.dispatcher.wake(), recognizerFor: voice.recognizerFor,
    enqueue: (kind, accountId, resourceId) => queue.get().runner.enqueue(kind, accountId, resourceId),
  });
  noteReader.bind(work.notes);
  queue.bind(await composeQueue(config, logger, storage, [...work.jobs, ...voice.jobs], jobLanes(engines.settings)));

  const coding = composeCoding(config, logger, compute, engines.textEngineOf);
  const access = await composeAccess(config, storage, accounts, localAccount, options);
  const bound: BoundPort = { port: config.port };
  const services = apiServices(config, logger, {
    storage, accounts, engines, writers, compute, work, queue: queue.get(), webhooks, coding, access, records, models: models.service, modelReading: extractionPrompt !== undefined,
    voiceAdaptation: voice.service,
  });
  const api = composeApi(config, logger, services, {
    ops, port: () => bound.port, version: VERSION, ...(access.rateWindows ? { rateWindows: access.rateWindows } : {}), ...(options.validateResponses ? { validateResponses: true } : {}),
  });
  // Last: a start that failed before here made no account whose key nobody was given.
  const localCredentials = await ensureLocalAccount(config, accounts, shared !== undefined, options.createLocalAccount);
  localAccount.bind(localCredentials);

  const jobs = queue.get().runner;
  const lifecycle = clindocLifecycle(config, logger, {
    server: api.server, bound, jobs, downloads: models.downloads, dispatcher: webhooks.dispatcher, records, registry: engines.registry, compute,
    models: models.service, storage, drain: ops.drain, signIn: access.signIn,
    startStreaming: streamingStarter(config, logger, { api, accounts, audit: records.audit, engines, access, port: () => bound.port, recognizerFor: voice.recognizerFor }),
  });
  const { audit, retention, backups, backupScheduler } = records;
  return {
    config, logger, db, server: api.server, accounts, jobs, webhooks: webhooks.dispatcher, audit, retention, protection: storage.protection, backups, backupScheduler,
    ...(localCredentials ? { localCredentials } : {}), ...lifecycle,
    // Adapted recognisers go after the work that used them, and their decrypted folders with them.
    close: async (closeOptions) => {
      try {
        await lifecycle.close(closeOptions);
      } finally {
        await voice.close();
      }
    },
  };
}
