import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { locateAppFiles, type AppFiles } from './app-files.js';
import { checkoutRoot, ConfigError, flag, fraction, int, list, platformDataDir, url, type Env } from './config-values.js';
import { parseWebhookAllow } from './services/webhooks/destination-policy.js';

export { ConfigError, platformDataDir } from './config-values.js';

/**
 * Clindoc's configuration: one schema, read from environment variables. Every field documents
 * its variable and default; a bad value stops start-up with a message naming the variable.
 */
export interface ClindocConfig {
  /** CLINDOC_PORT, default 8080. 0 picks a free port. */
  port: number;
  /** CLINDOC_HOST, default 127.0.0.1. Another interface only when set explicitly. */
  host: string;
  /** CLINDOC_DATA_DIR, default `./data` in a checkout, else the platform's per-user app data folder. */
  dataDir: string;
  /** CLINDOC_LOG_LEVEL, default info (fatal, error, warn, info, debug, trace, silent). */
  logLevel: string;
  /** CLINDOC_RATE_LIMIT, default 600 requests per window and account. */
  rateLimit: number;
  /** CLINDOC_RATE_WINDOW_SECONDS, default 60. */
  rateWindowSeconds: number;
  /** CLINDOC_BODY_LIMIT_BYTES, default 10485760 (10 MiB) for JSON bodies. */
  bodyLimitBytes: number;
  /** CLINDOC_MAX_AUDIO_BYTES, default 104857600 (100 MB, the contract's upload limit). */
  maxAudioBytes: number;
  /** CLINDOC_ALLOWED_ORIGINS, comma-separated extra origins allowed to call the API; default none. */
  allowedOrigins: string[];
  /** CLINDOC_ALLOWED_HOSTS, comma-separated extra host names accepted in `Host`; default none. */
  allowedHosts: string[];
  /** CLINDOC_CORS_ORIGINS, comma-separated origins given CORS headers; default none (CORS off). */
  corsOrigins: string[];
  /** CLINDOC_JOB_CONCURRENCY, default 1 background job at a time per engine (notes and transcriptions of up to 4 engines run side by side); 0 runs no jobs (API only). */
  jobConcurrency: number;
  /**
   * CLINDOC_JOB_MAX_ATTEMPTS, default 5: attempts a note or transcription job gets while its engine is
   * unreachable (retried after growing delays: 1, 2, 4, 8 s …) before it fails and becomes a dead letter.
   */
  jobMaxAttempts: number;
  /** CLINDOC_STREAM_TOKEN_TTL_SECONDS, default 600 (10 minutes). */
  streamTokenTtlSeconds: number;
  /** CLINDOC_LLM_BASE_URL: OpenAI-compatible server (e.g. http://127.0.0.1:8000/v1); default none. */
  llmBaseUrl?: string;
  /** CLINDOC_LLM_MODEL: model name on that server; required with CLINDOC_LLM_BASE_URL. */
  llmModel?: string;
  /** CLINDOC_LLM_API_KEY: bearer key for that server; default none. */
  llmApiKey?: string;
  /** CLINDOC_LLM_MODEL_PATH: a local GGUF file for the in-process llama.cpp engine; default none. */
  llmModelPath?: string;
  /** CLINDOC_LLM_THREADS: CPU threads for llama.cpp; default the cores available. */
  llmThreads?: number;
  /** CLINDOC_LLM_TIMEOUT_MS, default 120000. */
  llmTimeoutMs: number;
  /** CLINDOC_LLM_MAX_RETRIES: further attempts after a 429, 5xx or refused connection; default the engine's (2). */
  llmMaxRetries?: number;
  /** CLINDOC_LLM_STREAM: ask the OpenAI-compatible server for server-sent events; default false. */
  llmStream: boolean;
  /** CLINDOC_LLM_CONTEXT_SIZE: llama.cpp context window in tokens; default the engine's (8192, capped by the model's). */
  llmContextSize?: number;
  /** CLINDOC_ASR_ENGINE: default recogniser (pocketsphinx, onnx-ctc, onnx-whisper, openai-compatible); default pocketsphinx. */
  asrEngine: string;
  /** CLINDOC_ASR_MODEL_DIR: folder of an ONNX speech model; default none. */
  asrModelDir?: string;
  /**
   * CLINDOC_ASR_THREADS: CPU threads for speech recognition. pocketsphinx runs at most this many
   * recognitions at once (default the cores, at most 3); ONNX models use this many threads per
   * recognition (default 1).
   */
  asrThreads?: number;
  /** CLINDOC_POCKETSPHINX_LIB / CLINDOC_SPHINXBASE_LIB: the native libraries; default Debian's `libpocketsphinx.so.3` / `libsphinxbase.so.3`. */
  pocketsphinxLib?: string;
  sphinxbaseLib?: string;
  /** CLINDOC_ASR_BASE_URL / CLINDOC_ASR_MODEL / CLINDOC_ASR_API_KEY: OpenAI-compatible transcription server. */
  asrBaseUrl?: string;
  asrModel?: string;
  asrApiKey?: string;
  /** CLINDOC_ASR_TIMEOUT_MS, default 120000: longest one request to the transcription server may take (a whole recording). */
  asrTimeoutMs: number;
  /** CLINDOC_ASR_MAX_RETRIES, default 2: further attempts after a 429, a 5xx or a failed connection to the transcription server. */
  asrMaxRetries: number;
  /**
   * CLINDOC_ENGINE_FAILURE, default `embedded`: when a chosen model or server fails, the note or
   * transcript is made by the embedded engine and marked so (generatedBy.fallbackFrom, and the
   * note's review list); `fail` fails it instead (retried later when the engine was unreachable).
   */
  engineFailure: 'embedded' | 'fail';
  /** CLINDOC_ENGINE_RETRY_AFTER_SECONDS, default 60: after a chosen engine failed, work goes straight to the fallback this long before it is tried again. */
  engineRetryAfterSeconds: number;
  /** CLINDOC_ENGINE_CHECK_SECONDS, default 60: how often each known language-model and speech server is checked in the background (`GET /models`); 0 never. */
  engineCheckSeconds: number;
  /** CLINDOC_WEBHOOK_TIMEOUT_MS, default 10000 per delivery attempt. */
  webhookTimeoutMs: number;
  /**
   * CLINDOC_WEBHOOK_ALLOW, comma-separated exceptions to the webhook destination policy: `loopback`
   * (127.0.0.0/8 and ::1, for an integration on this computer) and CIDR ranges or addresses (a
   * clinic's 10.20.0.0/16); default none: webhooks go to public unicast addresses only.
   */
  webhookAllow: string[];
  /**
   * CLINDOC_OPERATOR_ACCOUNTS, comma-separated account ids that hold the operator role (backups,
   * model installs, code-set imports) besides the local account and accounts made with
   * `clindoc accounts create --operator`; default none.
   */
  operatorAccounts: string[];
  /**
   * CLINDOC_MODEL_IMPORT_DIRS, comma-separated folders `POST /v1/models/import` may read from;
   * default the user's home folder and the removable-media folders (/media, /run/media, /mnt, /Volumes).
   */
  modelImportDirs: string[];
  /** CLINDOC_RENDERER_DIR: built interface to serve at `/`; default the bundled one (main/app-files.ts). */
  rendererDir: string;
  /**
   * Folders of the resources bundled with the app, found by main/app-files.ts from where Clindoc
   * is installed (never the working directory); no environment variable: they ship with the code.
   */
  resources: BundledResources;
  /**
   * CLINDOC_ENCRYPTION_KEY: master key (32 bytes as 64 hex digits or base64) that seals the data
   * folder's key ring. Default none: the desktop app uses the OS keychain; headless runs generate
   * `encryption.key` (owner-only) in the data folder and warn once.
   */
  encryptionKey?: string;
  /**
   * CLINDOC_RETENTION_DAYS: default retention for accounts without their own setting; notes,
   * transcriptions and audio older than this are deleted by a background sweep. Default 0 (keep).
   */
  retentionDays: number;
  /** CLINDOC_RETENTION_SWEEP_SECONDS: how often the retention sweep runs; default 3600. */
  retentionSweepSeconds: number;
  /** CLINDOC_MAX_AUDIO_SECONDS, default 14400: longest decoded audio (guards against decompression bombs). */
  maxAudioSeconds: number;
  /** CLINDOC_FFMPEG_PATH / CLINDOC_FFPROBE_PATH, default `ffmpeg` / `ffprobe` on the PATH. */
  ffmpegPath: string;
  ffprobePath: string;
  /** CLINDOC_FFMPEG_TIMEOUT_MS, default 300000: longest one file decode may take. */
  ffmpegTimeoutMs: number;
  /**
   * CLINDOC_WORK_BUDGET_MS, default 30000: longest one text-to-JSON, coding analysis, embedded note
   * or style writing or macro detection may compute (in a worker thread; time waiting on a language
   * model not counted) before it is stopped with a 422; also the longest it waits for a free worker (then 503).
   */
  workBudgetMs: number;
  /** CLINDOC_WORK_THREADS, default 2: worker threads for that work (started on first use). */
  workThreads: number;
  /** CLINDOC_VAD_THRESHOLD, default 0.5: Silero speech probability that counts as speech. */
  vadThreshold: number;
  /** CLINDOC_VAD_MIN_COVERAGE, default 0.8: below this share of energy-detected speech found by Silero, batch VAD unites both. */
  vadMinCoverage: number;
  /** CLINDOC_ASR_MEDICAL, default true: mix the clinical language model into pocketsphinx (`0` turns it off). */
  asrMedical: boolean;
  /** CLINDOC_ASR_CLINICAL_WEIGHT, default 0.1: weight of the clinical language model in the mixture. */
  asrClinicalWeight: number;
  /** CLINDOC_STREAM_MAX_SESSIONS, default 6 open streaming sessions per account. */
  streamMaxSessionsPerAccount: number;
  /** CLINDOC_STREAM_IDLE_SECONDS, default 30 s with neither audio nor KeepAlive. */
  streamIdleTimeoutSeconds: number;
  /** CLINDOC_STREAM_MAX_SECONDS, default 7200 s of audio per session. */
  streamMaxSessionSeconds: number;
  /** CLINDOC_STREAM_MAX_MESSAGE_BYTES, default 1048576 per client message. */
  streamMaxMessageBytes: number;
  /**
   * Failed-authentication throttle (main/services/auth-throttle): CLINDOC_AUTH_MAX_FAILURES
   * (default 10 wrong keys from one address for one account, then a lockout; 5x that from one
   * address for any account locks the address), CLINDOC_AUTH_WINDOW_SECONDS (default 900, how
   * long failures count), CLINDOC_AUTH_LOCKOUT_SECONDS (default 60, doubling per lockout in a row),
   * CLINDOC_AUTH_MAX_LOCKOUT_SECONDS (default 3600), CLINDOC_AUTH_DELAY_MS (default 250: delay
   * before answering the third wrong key, doubling up to 8x; 0 = none).
   */
  authThrottle: { maxFailures: number; windowSeconds: number; lockoutSeconds: number; maxLockoutSeconds: number; delayMs: number };
  /**
   * CLINDOC_BACKUP_DIR: folder for backups written through the API and automatically; default
   * none (no automatic backups, and `POST /v1/backups` answers 409). `clindoc backup FILE` needs none.
   */
  backupDir?: string;
  /** CLINDOC_BACKUP_INTERVAL_HOURS, default 24: hours between automatic backups into CLINDOC_BACKUP_DIR; 0 = only on request. */
  backupIntervalHours: number;
  /** CLINDOC_BACKUP_KEEP, default 7: backups kept in CLINDOC_BACKUP_DIR; older ones are deleted after each new one. */
  backupKeep: number;
  /**
   * CLINDOC_CPT_TABLE: a licensed CPT table (CSV `code,descriptor`) whose descriptors coding
   * analysis shows beside its E/M suggestions; default none (code numbers only: CPT descriptors
   * are the AMA's and are never bundled).
   */
  cptTablePath?: string;
  /** Model manager and engine registry: CLINDOC_MODEL_MIRROR, CLINDOC_MODEL_CATALOG, CLINDOC_MODEL_IDLE_SECONDS (see {@link ModelSettings}). */
  models: ModelSettings;
  /**
   * CLINDOC_TLS_CERT / CLINDOC_TLS_KEY: PEM certificate (chain) and private key files; with both,
   * the API speaks HTTPS and the streaming socket WSS. Default none (plain HTTP, loopback only).
   */
  tls?: { certPath: string; keyPath: string };
  /**
   * CLINDOC_BEHIND_TLS_PROXY, default false: a TLS-terminating reverse proxy sits in front, so
   * CLINDOC_HOST may be a non-loopback address without CLINDOC_TLS_CERT; X-Forwarded-For/-Proto are
   * believed from the proxies in CLINDOC_TRUSTED_PROXIES only.
   */
  behindTlsProxy: boolean;
  /**
   * CLINDOC_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges of that proxy (express
   * `trust proxy` values); default `loopback`. Read only with CLINDOC_BEHIND_TLS_PROXY.
   */
  trustedProxies: string[];
  /**
   * CLINDOC_METRICS_TOKEN: bearer token `GET /metrics` requires (at least 16 characters); default
   * none, and then `/metrics` answers loopback clients only.
   */
  metricsToken?: string;
  /** CLINDOC_DRAIN_SECONDS, default 30: on SIGTERM/SIGINT, how long in-flight requests and running jobs get to finish. */
  drainSeconds: number;
  /**
   * CLINDOC_REQUEST_TIMEOUT_SECONDS, default 300: longest time a client may take to send one request,
   * head and body (a 100 MB upload needs about 2.7 Mbit/s); a slower one gets 408 and its connection
   * is closed. Live dictation sockets are not cut: the limit ends with the upgrade.
   */
  requestTimeoutSeconds: number;
  /** CLINDOC_MAX_CONNECTIONS, default 1000: open connections (live dictation included) beyond which new ones are closed at once. */
  maxConnections: number;
  /**
   * CLINDOC_OPENED_CACHE_MB, default 16 (0: none): memory for recently decrypted values (a note
   * read again is not decrypted again); a value unused for five minutes leaves it.
   */
  openedCacheMb: number;
  /**
   * CLINDOC_DATABASE_URL: a PostgreSQL URL (`postgres://user@host/db`) that holds every account's
   * data, shared by several instances; default none: SQLite in the data folder. The device's own
   * records (installed models) stay in the data folder either way.
   */
  databaseUrl?: string;
  /**
   * CLINDOC_SHARED_DIR: a folder every instance mounts (NFS/SMB): audio under `blobs/`, the key ring
   * `keyring.json` beside it. Default none: both in the data folder.
   */
  sharedDir?: string;
  /**
   * CLINDOC_ROLE (or `clindoc serve --role`), default `all`: `api` answers the HTTP API and queues
   * work but never runs it; `worker` runs note and transcription jobs and delivers webhooks,
   * answering only /healthz, /readyz and /metrics; `all` does both (the desktop). `api` and
   * `worker` need CLINDOC_DATABASE_URL: they share work through the PostgreSQL queue.
   */
  role: ServerRole;
  /** CLINDOC_JOB_EXPIRE_SECONDS, default 60: a job whose worker stops sending heartbeats for this long runs again elsewhere (PostgreSQL queue). */
  jobExpireSeconds: number;
}

export type ServerRole = 'api' | 'worker' | 'all';

/** Whether a listen address reaches this computer only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}


/** Where models come from and how long they stay loaded (the model manager and the engine registry). */
export interface ModelSettings {
  /**
   * CLINDOC_MODEL_MIRROR: a server that replaces the scheme and host of every catalog download
   * address (a clinic's own copy of the files, under the same paths); default none (the publishers').
   */
  mirror?: string;
  /** CLINDOC_MODEL_CATALOG: a catalog file to use instead of the bundled resources/models/catalog.json; default none. */
  catalogPath?: string;
  /**
   * CLINDOC_MODEL_IDLE_SECONDS, default 900: a model engine (Whisper, llama.cpp) unused this long
   * is unloaded to give its memory back, and loaded again on next use; 0 keeps models loaded.
   */
  idleSeconds: number;
}

/** Bundled resource folders (see {@link AppFiles}). */

export type BundledResources = Pick<AppFiles, 'asrDir' | 'promptsDir' | 'codesDir' | 'modelsDir'>;


/** CLINDOC_ENGINE_FAILURE: `embedded` (fall back, marked) or `fail`. */
function engineFailure(env: Env): 'embedded' | 'fail' {
  const value = env.CLINDOC_ENGINE_FAILURE?.trim() || 'embedded';
  if (value !== 'embedded' && value !== 'fail') throw new ConfigError('CLINDOC_ENGINE_FAILURE', `must be embedded or fail, not "${value.slice(0, 20)}"`);
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const ASR_ENGINES = ['pocketsphinx', 'onnx-ctc', 'onnx-whisper', 'openai-compatible'];

/**
 * Reads and validates the configuration; throws ConfigError naming the first bad variable.
 * @param cwd decides only the data folder's default (`./data` when it is a checkout)
 * @param files the app's bundled files; default found from this module (main/app passes the
 *   packaged app's resources path)
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd(), files: AppFiles = locateAppFiles()): ClindocConfig {
  const root = checkoutRoot(cwd);
  const host = (env.CLINDOC_HOST ?? '127.0.0.1').trim();
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new ConfigError('CLINDOC_HOST', `is not a host name or address: "${host}"`);
  const logLevel = (env.CLINDOC_LOG_LEVEL ?? 'info').trim();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('CLINDOC_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const asrEngine = (env.CLINDOC_ASR_ENGINE ?? 'pocketsphinx').trim();
  if (!ASR_ENGINES.includes(asrEngine)) throw new ConfigError('CLINDOC_ASR_ENGINE', `must be one of ${ASR_ENGINES.join(', ')}`);
  for (const name of ['CLINDOC_ALLOWED_ORIGINS', 'CLINDOC_CORS_ORIGINS']) {
    for (const origin of list(env, name)) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(name, `"${origin}" is not an origin like http://host:port`);
    }
  }
  const llmBaseUrl = url(env, 'CLINDOC_LLM_BASE_URL');
  const llmModel = env.CLINDOC_LLM_MODEL?.trim() || undefined;
  if (llmBaseUrl && !llmModel) throw new ConfigError('CLINDOC_LLM_MODEL', 'is required when CLINDOC_LLM_BASE_URL is set');
  const llmModelPath = env.CLINDOC_LLM_MODEL_PATH?.trim() || undefined;
  if (llmModelPath && !existsSync(llmModelPath)) throw new ConfigError('CLINDOC_LLM_MODEL_PATH', 'file does not exist');
  const cptTablePath = env.CLINDOC_CPT_TABLE?.trim() || undefined;
  if (cptTablePath && !existsSync(cptTablePath)) throw new ConfigError('CLINDOC_CPT_TABLE', 'file does not exist');
  const modelMirror = url(env, 'CLINDOC_MODEL_MIRROR');
  const modelCatalog = env.CLINDOC_MODEL_CATALOG?.trim() || undefined;
  if (modelCatalog && !existsSync(modelCatalog)) throw new ConfigError('CLINDOC_MODEL_CATALOG', 'file does not exist');

  const asrModelDir = env.CLINDOC_ASR_MODEL_DIR?.trim() || undefined;
  if (asrModelDir && !existsSync(asrModelDir)) throw new ConfigError('CLINDOC_ASR_MODEL_DIR', 'folder does not exist');
  const asrBaseUrl = url(env, 'CLINDOC_ASR_BASE_URL');
  const dataDir = resolve(env.CLINDOC_DATA_DIR?.trim() || (root ? join(root, 'data') : platformDataDir(env)));
  const encryptionKey = env.CLINDOC_ENCRYPTION_KEY?.trim() || undefined;
  if (encryptionKey && !/^[0-9a-fA-F]{64}$|^[A-Za-z0-9+/_-]{43}=?$/.test(encryptionKey)) {
    // Never echo the value: it is a secret.
    throw new ConfigError('CLINDOC_ENCRYPTION_KEY', 'must be 32 bytes written as 64 hex digits or base64 (openssl rand -base64 32)');
  }
  const threads = env.CLINDOC_LLM_THREADS ? int(env, 'CLINDOC_LLM_THREADS', 1, 1, 256) : undefined;
  const asrThreads = env.CLINDOC_ASR_THREADS ? int(env, 'CLINDOC_ASR_THREADS', 1, 1, 256) : undefined;
  const llmMaxRetries = env.CLINDOC_LLM_MAX_RETRIES ? int(env, 'CLINDOC_LLM_MAX_RETRIES', 2, 0, 20) : undefined;
  const llmContextSize = env.CLINDOC_LLM_CONTEXT_SIZE ? int(env, 'CLINDOC_LLM_CONTEXT_SIZE', 8192, 256, 1_048_576) : undefined;
  const exposure = readExposure(env, host);
  const pocketsphinxLib = env.CLINDOC_POCKETSPHINX_LIB?.trim() || undefined;
  const sphinxbaseLib = env.CLINDOC_SPHINXBASE_LIB?.trim() || undefined;
  return {
    port: int(env, 'CLINDOC_PORT', 8080, 0, 65535),
    host,
    dataDir,
    logLevel,
    rateLimit: int(env, 'CLINDOC_RATE_LIMIT', 600, 1, 1_000_000),
    rateWindowSeconds: int(env, 'CLINDOC_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    bodyLimitBytes: int(env, 'CLINDOC_BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    maxAudioBytes: int(env, 'CLINDOC_MAX_AUDIO_BYTES', 100 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
    allowedOrigins: list(env, 'CLINDOC_ALLOWED_ORIGINS'),
    allowedHosts: list(env, 'CLINDOC_ALLOWED_HOSTS'),
    corsOrigins: list(env, 'CLINDOC_CORS_ORIGINS'),
    jobConcurrency: int(env, 'CLINDOC_JOB_CONCURRENCY', 1, 0, 64),
    jobMaxAttempts: int(env, 'CLINDOC_JOB_MAX_ATTEMPTS', 5, 1, 20),
    streamTokenTtlSeconds: int(env, 'CLINDOC_STREAM_TOKEN_TTL_SECONDS', 600, 10, 86_400),
    ...(llmBaseUrl ? { llmBaseUrl } : {}),
    ...(llmModel ? { llmModel } : {}),
    ...(env.CLINDOC_LLM_API_KEY ? { llmApiKey: env.CLINDOC_LLM_API_KEY } : {}),
    ...(llmModelPath ? { llmModelPath } : {}),
    ...(threads ? { llmThreads: threads } : {}),
    llmTimeoutMs: int(env, 'CLINDOC_LLM_TIMEOUT_MS', 120_000, 100, 3_600_000),
    ...(llmMaxRetries !== undefined ? { llmMaxRetries } : {}),
    llmStream: flag(env, 'CLINDOC_LLM_STREAM', false),
    ...(llmContextSize ? { llmContextSize } : {}),
    asrEngine,
    ...(asrModelDir ? { asrModelDir } : {}),
    ...(asrThreads ? { asrThreads } : {}),
    ...(pocketsphinxLib ? { pocketsphinxLib } : {}),
    ...(sphinxbaseLib ? { sphinxbaseLib } : {}),
    ...(asrBaseUrl ? { asrBaseUrl } : {}),
    ...(env.CLINDOC_ASR_MODEL ? { asrModel: env.CLINDOC_ASR_MODEL } : {}),
    ...(env.CLINDOC_ASR_API_KEY ? { asrApiKey: env.CLINDOC_ASR_API_KEY } : {}),
    asrTimeoutMs: int(env, 'CLINDOC_ASR_TIMEOUT_MS', 120_000, 100, 3_600_000),
    asrMaxRetries: int(env, 'CLINDOC_ASR_MAX_RETRIES', 2, 0, 10),
    engineFailure: engineFailure(env),
    engineRetryAfterSeconds: int(env, 'CLINDOC_ENGINE_RETRY_AFTER_SECONDS', 60, 0, 86_400),
    engineCheckSeconds: int(env, 'CLINDOC_ENGINE_CHECK_SECONDS', 60, 0, 86_400),
    webhookTimeoutMs: int(env, 'CLINDOC_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookAllow: webhookAllow(env),
    operatorAccounts: list(env, 'CLINDOC_OPERATOR_ACCOUNTS'),
    modelImportDirs: env.CLINDOC_MODEL_IMPORT_DIRS?.trim()
      ? list(env, 'CLINDOC_MODEL_IMPORT_DIRS').map((dir) => resolve(dir))
      : [homedir(), '/media', '/run/media', '/mnt', '/Volumes'],
    rendererDir: resolve(env.CLINDOC_RENDERER_DIR?.trim() || files.rendererDir),
    resources: { asrDir: files.asrDir, promptsDir: files.promptsDir, codesDir: files.codesDir, modelsDir: files.modelsDir },

    ...(encryptionKey ? { encryptionKey } : {}),
    retentionDays: int(env, 'CLINDOC_RETENTION_DAYS', 0, 0, 36_500),
    retentionSweepSeconds: int(env, 'CLINDOC_RETENTION_SWEEP_SECONDS', 3600, 1, 86_400),
    maxAudioSeconds: int(env, 'CLINDOC_MAX_AUDIO_SECONDS', 14_400, 1, 86_400),
    ffmpegPath: env.CLINDOC_FFMPEG_PATH?.trim() || 'ffmpeg',
    ffprobePath: env.CLINDOC_FFPROBE_PATH?.trim() || 'ffprobe',
    ffmpegTimeoutMs: int(env, 'CLINDOC_FFMPEG_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    workBudgetMs: int(env, 'CLINDOC_WORK_BUDGET_MS', 30_000, 100, 600_000),
    workThreads: int(env, 'CLINDOC_WORK_THREADS', 2, 1, 32),
    vadThreshold: fraction(env, 'CLINDOC_VAD_THRESHOLD', 0.5),
    vadMinCoverage: fraction(env, 'CLINDOC_VAD_MIN_COVERAGE', 0.8),
    asrMedical: flag(env, 'CLINDOC_ASR_MEDICAL', true),
    asrClinicalWeight: fraction(env, 'CLINDOC_ASR_CLINICAL_WEIGHT', 0.1),
    streamMaxSessionsPerAccount: int(env, 'CLINDOC_STREAM_MAX_SESSIONS', 6, 1, 1000),
    streamIdleTimeoutSeconds: int(env, 'CLINDOC_STREAM_IDLE_SECONDS', 30, 1, 3600),
    streamMaxSessionSeconds: int(env, 'CLINDOC_STREAM_MAX_SECONDS', 7200, 10, 86_400),
    streamMaxMessageBytes: int(env, 'CLINDOC_STREAM_MAX_MESSAGE_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    ...(env.CLINDOC_BACKUP_DIR?.trim() ? { backupDir: resolve(env.CLINDOC_BACKUP_DIR.trim()) } : {}),
    backupIntervalHours: int(env, 'CLINDOC_BACKUP_INTERVAL_HOURS', 24, 0, 8760),
    backupKeep: int(env, 'CLINDOC_BACKUP_KEEP', 7, 1, 1000),
    ...(cptTablePath ? { cptTablePath: resolve(cptTablePath) } : {}),
    models: {
      ...(modelMirror ? { mirror: modelMirror } : {}),
      ...(modelCatalog ? { catalogPath: resolve(modelCatalog) } : {}),
      idleSeconds: int(env, 'CLINDOC_MODEL_IDLE_SECONDS', 900, 0, 604_800),
    },

    authThrottle: {
      maxFailures: int(env, 'CLINDOC_AUTH_MAX_FAILURES', 10, 1, 10_000),
      windowSeconds: int(env, 'CLINDOC_AUTH_WINDOW_SECONDS', 900, 1, 86_400),
      lockoutSeconds: int(env, 'CLINDOC_AUTH_LOCKOUT_SECONDS', 60, 1, 86_400),
      maxLockoutSeconds: int(env, 'CLINDOC_AUTH_MAX_LOCKOUT_SECONDS', 3600, 1, 604_800),
      delayMs: int(env, 'CLINDOC_AUTH_DELAY_MS', 250, 0, 10_000),
    },
    ...exposure,
    drainSeconds: int(env, 'CLINDOC_DRAIN_SECONDS', 30, 0, 3600),
    requestTimeoutSeconds: int(env, 'CLINDOC_REQUEST_TIMEOUT_SECONDS', 300, 1, 3600),
    maxConnections: int(env, 'CLINDOC_MAX_CONNECTIONS', 1000, 1, 1_000_000),
    openedCacheMb: int(env, 'CLINDOC_OPENED_CACHE_MB', 16, 0, 4096),
    ...readClinic(env, encryptionKey),
  };
}

/** CLINDOC_WEBHOOK_ALLOW's entries, each `loopback` or a CIDR range. */
function webhookAllow(env: Env): string[] {
  const entries = list(env, 'CLINDOC_WEBHOOK_ALLOW');
  try {
    parseWebhookAllow(entries);
  } catch (err) {
    throw new ConfigError('CLINDOC_WEBHOOK_ALLOW', (err as Error).message);
  }
  return entries;
}

/** The clinic-server settings: a shared database, a shared folder and the process's role. */
function readClinic(env: Env, encryptionKey: string | undefined): Pick<ClindocConfig, 'databaseUrl' | 'sharedDir' | 'role' | 'jobExpireSeconds'> {
  const databaseUrl = env.CLINDOC_DATABASE_URL?.trim() || undefined;
  // Never echo the URL: it may carry a password.
  if (databaseUrl && !/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) throw new ConfigError('CLINDOC_DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  // Every instance must open the same key ring: a key generated into one data folder would leave the others unable to read.
  if (databaseUrl && !encryptionKey) throw new ConfigError('CLINDOC_ENCRYPTION_KEY', 'is required with CLINDOC_DATABASE_URL: every instance must share one master key');
  const sharedDir = env.CLINDOC_SHARED_DIR?.trim() ? resolve(env.CLINDOC_SHARED_DIR.trim()) : undefined;
  // The shared folder is a mount: never created by Clindoc, so a missing mount stops the start instead
  // of filling this machine's disk (and writing a key ring the other instances never see).
  if (sharedDir && !existsSync(sharedDir)) throw new ConfigError('CLINDOC_SHARED_DIR', 'does not exist: mount the shared folder before starting Clindoc');
  const role = (env.CLINDOC_ROLE?.trim() || 'all') as ServerRole;
  if (!['api', 'worker', 'all'].includes(role)) throw new ConfigError('CLINDOC_ROLE', `must be api, worker or all, not "${role}"`);
  // Split roles share work through the PostgreSQL queue. On SQLite an API-only process would queue
  // notes nobody writes, and each process starting would take back the jobs another one is running.
  if (role !== 'all' && !databaseUrl) throw new ConfigError('CLINDOC_ROLE', `${role} needs CLINDOC_DATABASE_URL (a shared PostgreSQL database); on SQLite one process does both (all)`);
  return {
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(sharedDir ? { sharedDir } : {}),
    role,
    jobExpireSeconds: int(env, 'CLINDOC_JOB_EXPIRE_SECONDS', 60, 2, 86_400),
  };
}

/**
 * TLS, the proxy in front and the metrics token. A non-loopback listen address without TLS or a
 * declared TLS proxy is refused: API keys and patient audio would cross the clinic's network in clear.
 */
function readExposure(env: Env, host: string): Pick<ClindocConfig, 'tls' | 'behindTlsProxy' | 'trustedProxies' | 'metricsToken'> {
  const certPath = env.CLINDOC_TLS_CERT?.trim() || undefined;
  const keyPath = env.CLINDOC_TLS_KEY?.trim() || undefined;
  if (Boolean(certPath) !== Boolean(keyPath)) {
    throw new ConfigError(certPath ? 'CLINDOC_TLS_KEY' : 'CLINDOC_TLS_CERT', 'CLINDOC_TLS_CERT and CLINDOC_TLS_KEY are set together');
  }
  if (certPath && !existsSync(certPath)) throw new ConfigError('CLINDOC_TLS_CERT', 'file does not exist');
  if (keyPath && !existsSync(keyPath)) throw new ConfigError('CLINDOC_TLS_KEY', 'file does not exist');
  const behindTlsProxy = flag(env, 'CLINDOC_BEHIND_TLS_PROXY', false);
  if (!isLoopbackHost(host) && !certPath && !behindTlsProxy) {
    throw new ConfigError('CLINDOC_HOST', `"${host}" is reachable from the network: set CLINDOC_TLS_CERT and CLINDOC_TLS_KEY, or CLINDOC_BEHIND_TLS_PROXY=true when a TLS proxy sits in front`);
  }
  const trustedProxies = list(env, 'CLINDOC_TRUSTED_PROXIES');
  for (const proxy of trustedProxies) {
    if (!/^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(proxy)) {
      throw new ConfigError('CLINDOC_TRUSTED_PROXIES', `"${proxy}" is not an address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
  }
  const metricsToken = env.CLINDOC_METRICS_TOKEN?.trim() || undefined;
  // Never echo the value: it is a secret.
  if (metricsToken && metricsToken.length < 16) throw new ConfigError('CLINDOC_METRICS_TOKEN', 'must be at least 16 characters (openssl rand -hex 24)');
  return {
    ...(certPath && keyPath ? { tls: { certPath: resolve(certPath), keyPath: resolve(keyPath) } } : {}),
    behindTlsProxy,
    trustedProxies: trustedProxies.length ? trustedProxies : ['loopback'],
    ...(metricsToken ? { metricsToken } : {}),
  };
}
