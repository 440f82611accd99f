/**
 * The shape of Clindoc's configuration, as the rest of the program reads it. What each field means,
 * the variable that sets it, its default and its range are written once, in main/config-table.ts;
 * the compiler holds the two together (each row's reader gives its field's type, and every field
 * below has a row: see `ConfigField` and the check at the end of config-table.ts). Each field's
 * JSDoc names its variable and default for a reader of this file; configuration-truth.test.ts keeps
 * them in step with the table.
 */
import type { AppFiles } from './app-files.js';

export type ServerRole = 'api' | 'worker' | 'all';

/** Bundled resource folders (see {@link AppFiles}): found from where Clindoc is installed, never configured. */
export type BundledResources = Pick<AppFiles, 'asrDir' | 'promptsDir' | 'codesDir' | 'modelsDir'>;

/** Where models come from and how long they stay loaded (the model manager and the engine registry). */
export interface ModelSettings {
  /** CLINDOC_MODEL_MIRROR (default none (the publishers' addresses)). */
  mirror?: string;
  /** CLINDOC_MODEL_CATALOG (default the bundled resources/models/catalog.json). */
  catalogPath?: string;
  /** CLINDOC_MODEL_IDLE_SECONDS (default 900). */
  idleSeconds: number;
}

/** The failed-authentication throttle (main/services/auth-throttle). */
export interface AuthThrottleSettings {
  /** CLINDOC_AUTH_MAX_FAILURES (default 10). */
  maxFailures: number;
  /** CLINDOC_AUTH_WINDOW_SECONDS (default 900). */
  windowSeconds: number;
  /** CLINDOC_AUTH_LOCKOUT_SECONDS (default 60). */
  lockoutSeconds: number;
  /** CLINDOC_AUTH_MAX_LOCKOUT_SECONDS (default 3600). */
  maxLockoutSeconds: number;
  /** CLINDOC_AUTH_DELAY_MS (default 250). */
  delayMs: number;
}

/** Clindoc's configuration, read from environment variables by `loadConfig` (main/config.ts). */
export interface ClindocConfig {
  // The listener and who may reach it.
  /** CLINDOC_PORT (default 8080). */
  port: number;
  /** CLINDOC_HOST (default 127.0.0.1). */
  host: string;
  /** CLINDOC_TLS_CERT (default none (plain HTTP)); CLINDOC_TLS_KEY (default none). */
  tls?: { certPath: string; keyPath: string };
  /** CLINDOC_BEHIND_TLS_PROXY (default false). */
  behindTlsProxy: boolean;
  /** CLINDOC_TRUSTED_PROXIES (default loopback). */
  trustedProxies: string[];
  /** CLINDOC_METRICS_TOKEN (default none (/metrics for loopback clients only)). */
  metricsToken?: string;
  /** CLINDOC_DRAIN_SECONDS (default 30). */
  drainSeconds: number;
  /** CLINDOC_REQUEST_TIMEOUT_SECONDS (default 300). */
  requestTimeoutSeconds: number;
  /** CLINDOC_MAX_CONNECTIONS (default 1000). */
  maxConnections: number;
  /** CLINDOC_OPENED_CACHE_MB (default 16). */
  openedCacheMb: number;
  // A clinic server: shared database and folder, and this process's role.
  /** CLINDOC_DATABASE_URL (default none (SQLite in the data folder)). */
  databaseUrl?: string;
  /** CLINDOC_SHARED_DIR (default none (the data folder)). */
  sharedDir?: string;
  /** CLINDOC_ROLE (default all). */
  role: ServerRole;
  /** CLINDOC_JOB_EXPIRE_SECONDS (default 60). */
  jobExpireSeconds: number;
  // Data, logs and request limits.
  /** CLINDOC_DATA_DIR (default ./data in a checkout, else the per-user app data folder). */
  dataDir: string;
  /** CLINDOC_LOG_LEVEL (default info). */
  logLevel: string;
  /** CLINDOC_RATE_LIMIT (default 600). */
  rateLimit: number;
  /** CLINDOC_RATE_WINDOW_SECONDS (default 60). */
  rateWindowSeconds: number;
  /** CLINDOC_BODY_LIMIT_BYTES (default 10485760). */
  bodyLimitBytes: number;
  /** CLINDOC_MAX_AUDIO_BYTES (default 104857600). */
  maxAudioBytes: number;
  /** CLINDOC_ALLOWED_ORIGINS (default none). */
  allowedOrigins: string[];
  /** CLINDOC_ALLOWED_HOSTS (default none). */
  allowedHosts: string[];
  /** CLINDOC_CORS_ORIGINS (default none (CORS off)). */
  corsOrigins: string[];
  /** CLINDOC_JOB_CONCURRENCY (default 1). */
  jobConcurrency: number;
  /** CLINDOC_JOB_MAX_ATTEMPTS (default 5). */
  jobMaxAttempts: number;
  // Live dictation.
  /** CLINDOC_STREAM_TOKEN_TTL_SECONDS (default 600). */
  streamTokenTtlSeconds: number;
  /** CLINDOC_STREAM_MAX_SESSIONS (default 6). */
  streamMaxSessionsPerAccount: number;
  /** CLINDOC_STREAM_IDLE_SECONDS (default 30). */
  streamIdleTimeoutSeconds: number;
  /** CLINDOC_STREAM_MAX_SECONDS (default 7200). */
  streamMaxSessionSeconds: number;
  /** CLINDOC_STREAM_MAX_MESSAGE_BYTES (default 1048576). */
  streamMaxMessageBytes: number;
  // Language models.
  /** CLINDOC_LLM_BASE_URL (default none). */
  llmBaseUrl?: string;
  /** CLINDOC_LLM_MODEL (default none). */
  llmModel?: string;
  /** CLINDOC_LLM_API_KEY (default none). */
  llmApiKey?: string;
  /** CLINDOC_LLM_MODEL_PATH (default none). */
  llmModelPath?: string;
  /** CLINDOC_LLM_THREADS (default cores available). */
  llmThreads?: number;
  /** CLINDOC_LLM_TIMEOUT_MS (default 120000). */
  llmTimeoutMs: number;
  /** CLINDOC_LLM_MAX_RETRIES (default 2 (the engine's)). */
  llmMaxRetries?: number;
  /** CLINDOC_LLM_STREAM (default false). */
  llmStream: boolean;
  /** CLINDOC_LLM_CONTEXT_SIZE (default 8192, capped by the model's). */
  llmContextSize?: number;
  // Speech.
  /** CLINDOC_ASR_ENGINE (default pocketsphinx). */
  asrEngine: string;
  /** CLINDOC_ASR_MODEL_DIR (default none). */
  asrModelDir?: string;
  /** CLINDOC_ASR_THREADS (default pocketsphinx: cores, at most 3; ONNX: 1). */
  asrThreads?: number;
  /** CLINDOC_ASR_MEDICAL (default true). */
  asrMedical: boolean;
  /** CLINDOC_ASR_CLINICAL_WEIGHT (default 0.1). */
  asrClinicalWeight: number;
  /** CLINDOC_POCKETSPHINX_LIB (default libpocketsphinx.so.3). */
  pocketsphinxLib?: string;
  /** CLINDOC_SPHINXBASE_LIB (default libsphinxbase.so.3). */
  sphinxbaseLib?: string;
  /** CLINDOC_VAD_THRESHOLD (default 0.5). */
  vadThreshold: number;
  /** CLINDOC_FFMPEG_PATH (default ffmpeg). */
  ffmpegPath: string;
  /** CLINDOC_FFPROBE_PATH (default ffprobe). */
  ffprobePath: string;
  /** CLINDOC_FFMPEG_TIMEOUT_MS (default 300000). */
  ffmpegTimeoutMs: number;
  /** CLINDOC_WORK_BUDGET_MS (default 30000). */
  workBudgetMs: number;
  /** CLINDOC_WORK_THREADS (default 2). */
  workThreads: number;
  /** CLINDOC_VAD_MIN_COVERAGE (default 0.8). */
  vadMinCoverage: number;
  /** CLINDOC_ASR_BASE_URL (default none). */
  asrBaseUrl?: string;
  /** CLINDOC_ASR_MODEL (default whisper-1). */
  asrModel?: string;
  /** CLINDOC_ASR_API_KEY (default none). */
  asrApiKey?: string;
  /** CLINDOC_ASR_TIMEOUT_MS (default 120000). */
  asrTimeoutMs: number;
  /** CLINDOC_ASR_MAX_RETRIES (default 2). */
  asrMaxRetries: number;
  // When an engine fails.
  /** CLINDOC_ENGINE_FAILURE (default embedded). */
  engineFailure: 'embedded' | 'fail';
  /** CLINDOC_ENGINE_RETRY_AFTER_SECONDS (default 60). */
  engineRetryAfterSeconds: number;
  /** CLINDOC_ENGINE_CHECK_SECONDS (default 60). */
  engineCheckSeconds: number;
  // Webhooks, operators, models, the interface.
  /** CLINDOC_WEBHOOK_TIMEOUT_MS (default 10000). */
  webhookTimeoutMs: number;
  /** CLINDOC_WEBHOOK_ALLOW (default none (public addresses only)). */
  webhookAllow: string[];
  /** CLINDOC_OPERATOR_ACCOUNTS (default none). */
  operatorAccounts: string[];
  /** CLINDOC_MODEL_IMPORT_DIRS (default home folder, /media, /run/media, /mnt, /Volumes). */
  modelImportDirs: string[];
  /** CLINDOC_RENDERER_DIR (default the installation's dist/renderer). */
  rendererDir: string;
  /** The bundled resources; no environment variable: they ship with the code. */
  resources: BundledResources;
  // Keys, retention, audio limits.
  /** CLINDOC_ENCRYPTION_KEY (default none (desktop: OS keychain; headless: generated encryption.key, owner-only)). */
  encryptionKey?: string;
  /** CLINDOC_RETENTION_DAYS (default 0 (keep)). */
  retentionDays: number;
  /** CLINDOC_RETENTION_SWEEP_SECONDS (default 3600). */
  retentionSweepSeconds: number;
  /** CLINDOC_MAX_AUDIO_SECONDS (default 14400). */
  maxAudioSeconds: number;
  authThrottle: AuthThrottleSettings;
  // Backups, coding, the model manager.
  /** CLINDOC_BACKUP_DIR (default none). */
  backupDir?: string;
  /** CLINDOC_BACKUP_INTERVAL_HOURS (default 24). */
  backupIntervalHours: number;
  /** CLINDOC_BACKUP_KEEP (default 7). */
  backupKeep: number;
  /** CLINDOC_CPT_TABLE (default none). */
  cptTablePath?: string;
  models: ModelSettings;
}

/** Fields filled from the environment by a table row: every field but the bundled resources. */
type Settable = Omit<ClindocConfig, 'resources'>;

/** A leaf of the configuration: `port`, or `authThrottle.maxFailures` inside a group. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends string | number | boolean | readonly unknown[]
    ? `${Prefix}${K}`
    : Leaves<NonNullable<T[K]>, `${Prefix}${K}.`>;
}[keyof T & string];

/** Every field a table row may fill. */
export type ConfigField = Leaves<Settable>;

/** The value a field holds; `undefined` allowed where the field (or the group holding it) is optional. */
export type FieldValue<P extends string, T = Settable> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? undefined extends T[Head] ? FieldValue<Rest, NonNullable<T[Head]>> | undefined : FieldValue<Rest, T[Head]>
    : never
  : P extends keyof T ? T[P] : never;
