/**
 * Every environment variable Clindoc reads, written once: its name, the configuration field it
 * fills, how its value is read (type, default, range: see the kinds in config-values.ts), what it
 * means and whether it is a secret. `loadConfig` (main/config.ts) parses the environment by walking
 * this table; README's configuration table and docs/configuration.md are generated from it
 * (`npm run docs:config`, main/config-docs.ts) and test/api/configuration-truth.test.ts fails when
 * they differ. A new variable is one new row here, then `npm run docs:config`.
 *
 * The order is the README's: listener and exposure, clinic server, data and limits, live
 * dictation, language models, speech, engines, webhooks and operators, the desktop, keys and
 * retention, the authentication throttle, backups, coding, models, the command line.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ConfigField, FieldValue } from './config-shape.js';
import { commaList, httpUrl, integer, oneOf, optionalInteger, path, platformDataDir, share, text, trueOrFalse, type ValueKind } from './config-values.js';
import { parseWebhookAllow } from './services/webhooks/destination-policy.js';

interface Described {
  name: `CLINDOC_${string}`;
  /** Markdown, as the README shows it. */
  meaning: string;
  /** A key, token or URL that may carry a password: never logged, echoed in an error or shown with its value. */
  secret?: boolean;
}

/** A variable `loadConfig` reads into `field`; its kind's reader must give that field's type. */
export type FieldVariable = { [P in ConfigField]: Described & { field: P } & ValueKind<FieldValue<P>> }[ConfigField];

/** A variable another part reads itself (the desktop glue, the command line); documented here all the same. */
export interface OtherVariable extends Described {
  field?: undefined;
  /** Who reads it, for the generated page. */
  readBy: string;
  type: string;
  default: string;
  range?: string;
}

export type ConfigVariable = FieldVariable | OtherVariable;

const ORIGIN = (origin: string): string | undefined => (/^https?:\/\/[^/\s]+$/.test(origin) ? undefined : `"${origin}" is not an origin like http://host:port`);
const PROXY = (proxy: string): string | undefined =>
  /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/.test(proxy) ? undefined : `"${proxy}" is not an address, a CIDR range, loopback, linklocal or uniquelocal`;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ASR_ENGINES = ['pocketsphinx', 'onnx-ctc', 'onnx-whisper', 'openai-compatible'] as const;
const MIB = 1024 * 1024;

/** The data folder: as set, else `./data` in a checkout, else the platform's per-user folder. */
const dataFolder: ValueKind<string> = {
  type: 'folder', default: '`./data` in a checkout, else the per-user app data folder',
  read: (env, name, context) => resolve(env[name]?.trim() || (context.checkout ? join(context.checkout, 'data') : platformDataDir(env))),
};

export const CONFIG_VARIABLES = [
  { name: 'CLINDOC_PORT', field: 'port', ...integer(8080, 0, 65535), meaning: 'Port of the local API (0 = any free port)' },
  {
    name: 'CLINDOC_HOST', field: 'host', ...text({ fallback: '127.0.0.1', pattern: /^[A-Za-z0-9.:[\]-]+$/, refused: (host) => `is not a host name or address: "${host}"` }), type: 'host name or address',
    meaning: 'Interface to listen on; another only when set, and a non-loopback one only with TLS or `CLINDOC_BEHIND_TLS_PROXY` (start-up refuses otherwise)',
  },
  {
    name: 'CLINDOC_TLS_CERT', field: 'tls.certPath', ...path({ exists: 'file', absolute: true }), default: 'none (plain HTTP)',
    meaning: 'PEM certificate (chain) file; with `CLINDOC_TLS_KEY` the API speaks HTTPS and the streaming socket WSS ([docs/deploy.md](docs/deploy.md))',
  },
  { name: 'CLINDOC_TLS_KEY', field: 'tls.keyPath', ...path({ exists: 'file', absolute: true }), meaning: 'PEM private key file of that certificate; set together with `CLINDOC_TLS_CERT`' },
  {
    name: 'CLINDOC_BEHIND_TLS_PROXY', field: 'behindTlsProxy', ...trueOrFalse(false),
    meaning: 'A TLS-terminating proxy sits in front: a non-loopback `CLINDOC_HOST` is allowed without a certificate, and `X-Forwarded-For`/`-Proto` are believed from the trusted proxies only',
  },
  {
    name: 'CLINDOC_TRUSTED_PROXIES', field: 'trustedProxies', ...commaList({ entry: PROXY, otherwise: () => ['loopback'] }), default: '`loopback`',
    meaning: 'Addresses or CIDR ranges of that proxy (comma-separated; also `linklocal`, `uniquelocal`); read only behind a TLS proxy',
  },
  {
    name: 'CLINDOC_METRICS_TOKEN', field: 'metricsToken', ...text({ pattern: /^[\s\S]{16,}$/, refused: 'must be at least 16 characters (openssl rand -hex 24)' }), secret: true,
    default: 'none (`/metrics` for loopback clients only)', meaning: 'Bearer token `GET /metrics` requires from every client (at least 16 characters)',
  },
  { name: 'CLINDOC_DRAIN_SECONDS', field: 'drainSeconds', ...integer(30, 0, 3600), meaning: 'On SIGTERM/SIGINT: how long requests in flight and running jobs get to finish before the process exits' },
  {
    name: 'CLINDOC_REQUEST_TIMEOUT_SECONDS', field: 'requestTimeoutSeconds', ...integer(300, 1, 3600),
    meaning: 'Longest time a client may take to send one request, head and body (408 and the connection closed beyond; a 100 MB upload needs about 2.7 Mbit/s). Live dictation sockets are not cut',
  },
  { name: 'CLINDOC_MAX_CONNECTIONS', field: 'maxConnections', ...integer(1000, 1, 1_000_000), meaning: 'Open connections (live dictation included) beyond which new ones are closed at once' },
  {
    name: 'CLINDOC_OPENED_CACHE_MB', field: 'openedCacheMb', ...integer(16, 0, 4096),
    meaning: 'Memory for recently decrypted values, so a note or visit read again is not decrypted again; a value unused for five minutes leaves it; `0` keeps none',
  },
  {
    // The refusal never quotes the URL: it may carry a password.
    name: 'CLINDOC_DATABASE_URL', field: 'databaseUrl', ...text({ pattern: /^postgres(ql)?:\/\/\S+$/, refused: 'must be a postgres:// or postgresql:// URL' }), type: 'PostgreSQL URL', secret: true,
    default: 'none (SQLite in the data folder)',
    meaning: 'PostgreSQL URL (`postgres://user@host/db`) holding every account\'s data, shared by several instances (`docs/deploy.md`); needs `CLINDOC_ENCRYPTION_KEY`. The device\'s installed-model records stay in the data folder',
  },
  {
    // Never created by Clindoc: a missing mount stops the start instead of filling this machine's disk.
    name: 'CLINDOC_SHARED_DIR', field: 'sharedDir', ...path({ exists: 'folder', absolute: true, missing: 'does not exist: mount the shared folder before starting Clindoc' }),
    default: 'none (the data folder)', meaning: 'Folder every instance mounts (NFS/SMB): audio under `blobs/`, the key ring `keyring.json`',
  },
  {
    name: 'CLINDOC_ROLE', field: 'role', ...oneOf(['api', 'worker', 'all'] as const, 'all', (value) => `must be api, worker or all, not "${value}"`),
    meaning: '`api`: answers the API and queues work; `worker`: runs note and transcription jobs and delivers webhooks (serves only `/healthz`, `/readyz`, `/metrics`); `all`: both. `api` and `worker` need `CLINDOC_DATABASE_URL` (their shared queue); on SQLite one process does both. Same as `clindoc serve --role`',
  },
  { name: 'CLINDOC_JOB_EXPIRE_SECONDS', field: 'jobExpireSeconds', ...integer(60, 2, 86_400), meaning: 'PostgreSQL queue: a job whose worker sends no heartbeat for this long (a killed worker) runs again on another worker' },
  { name: 'CLINDOC_DATA_DIR', field: 'dataDir', ...dataFolder, meaning: 'Database, audio blobs, local credentials' },
  { name: 'CLINDOC_LOG_LEVEL', field: 'logLevel', ...oneOf(LOG_LEVELS, 'info'), meaning: 'pino level (`fatal`…`trace`, `silent`)' },
  { name: 'CLINDOC_RATE_LIMIT', field: 'rateLimit', ...integer(600, 1, 1_000_000), meaning: 'Requests per window per account' },
  { name: 'CLINDOC_RATE_WINDOW_SECONDS', field: 'rateWindowSeconds', ...integer(60, 1, 86_400), meaning: 'Rate-limit window' },
  { name: 'CLINDOC_BODY_LIMIT_BYTES', field: 'bodyLimitBytes', ...integer(10 * MIB, 1024, 512 * MIB), meaning: 'Largest JSON body (413 beyond)' },
  { name: 'CLINDOC_MAX_AUDIO_BYTES', field: 'maxAudioBytes', ...integer(100 * MIB, 1024, 4096 * MIB), meaning: 'Largest audio upload (413 beyond)' },
  { name: 'CLINDOC_ALLOWED_ORIGINS', field: 'allowedOrigins', ...commaList({ entry: ORIGIN }), meaning: 'Extra web origins allowed to call the API (comma-separated)' },
  {
    name: 'CLINDOC_ALLOWED_HOSTS', field: 'allowedHosts', ...commaList(),
    meaning: 'Extra host names accepted in `Host` (the clinic\'s name); with TLS or a TLS proxy also without a port, and `https://` + the name is the app\'s own origin',
  },
  { name: 'CLINDOC_CORS_ORIGINS', field: 'corsOrigins', ...commaList({ entry: ORIGIN }), default: 'none (CORS off)', meaning: 'Origins that get CORS headers' },
  {
    name: 'CLINDOC_JOB_CONCURRENCY', field: 'jobConcurrency', ...integer(1, 0, 64),
    meaning: 'Background jobs at once per engine (up to 4 engines side by side, so a hung server holds only its own jobs; 0 = accept work but run none)',
  },
  {
    name: 'CLINDOC_JOB_MAX_ATTEMPTS', field: 'jobMaxAttempts', ...integer(5, 1, 20),
    meaning: 'Attempts a note or transcription job gets while its engine is unreachable (retried after growing delays: 1, 2, 4, 8 s …) before it fails and is listed at `GET /v1/jobs/dead-letters`',
  },
  { name: 'CLINDOC_STREAM_TOKEN_TTL_SECONDS', field: 'streamTokenTtlSeconds', ...integer(600, 10, 86_400), meaning: 'Lifetime of streaming tokens' },
  { name: 'CLINDOC_STREAM_MAX_SESSIONS', field: 'streamMaxSessionsPerAccount', ...integer(6, 1, 1000), meaning: 'Open streaming sessions per account' },
  { name: 'CLINDOC_STREAM_IDLE_SECONDS', field: 'streamIdleTimeoutSeconds', ...integer(30, 1, 3600), meaning: 'Streaming session closes after this long with neither audio nor KeepAlive' },
  { name: 'CLINDOC_STREAM_MAX_SECONDS', field: 'streamMaxSessionSeconds', ...integer(7200, 10, 86_400), meaning: 'Audio one streaming session may send' },
  { name: 'CLINDOC_STREAM_MAX_MESSAGE_BYTES', field: 'streamMaxMessageBytes', ...integer(MIB, 1024, 64 * MIB), meaning: 'Largest streaming client message' },
  { name: 'CLINDOC_LLM_BASE_URL', field: 'llmBaseUrl', ...httpUrl(), meaning: 'OpenAI-compatible server for notes/styles/extraction' },
  { name: 'CLINDOC_LLM_MODEL', field: 'llmModel', ...text(), meaning: 'Model name on that server (required with the URL)' },
  { name: 'CLINDOC_LLM_API_KEY', field: 'llmApiKey', ...text({ trim: false }), secret: true, meaning: 'Bearer key for that server' },
  { name: 'CLINDOC_LLM_MODEL_PATH', field: 'llmModelPath', ...path({ exists: 'file' }), meaning: 'Local GGUF for the in-process llama.cpp engine' },
  { name: 'CLINDOC_LLM_THREADS', field: 'llmThreads', ...optionalInteger(1, 256), default: 'cores available', meaning: 'CPU threads for llama.cpp' },
  { name: 'CLINDOC_LLM_TIMEOUT_MS', field: 'llmTimeoutMs', ...integer(120_000, 100, 3_600_000), meaning: 'Per-request timeout of language-model calls' },
  {
    name: 'CLINDOC_LLM_MAX_RETRIES', field: 'llmMaxRetries', ...optionalInteger(0, 20), default: '`2` (the engine\'s)',
    meaning: 'Further attempts after a 429, a 5xx or a refused connection (OpenAI-compatible server)',
  },
  { name: 'CLINDOC_LLM_STREAM', field: 'llmStream', ...trueOrFalse(false), meaning: 'Ask the OpenAI-compatible server for server-sent events' },
  { name: 'CLINDOC_LLM_CONTEXT_SIZE', field: 'llmContextSize', ...optionalInteger(256, 1_048_576), default: '`8192`, capped by the model\'s', meaning: 'Context window of the llama.cpp engine, in tokens' },
  { name: 'CLINDOC_ASR_ENGINE', field: 'asrEngine', ...oneOf(ASR_ENGINES, 'pocketsphinx'), meaning: 'Default recogniser: `pocketsphinx`, `onnx-ctc`, `onnx-whisper`, `openai-compatible`' },
  { name: 'CLINDOC_ASR_MODEL_DIR', field: 'asrModelDir', ...path({ exists: 'folder' }), meaning: 'Folder of an ONNX speech model' },
  {
    name: 'CLINDOC_ASR_THREADS', field: 'asrThreads', ...optionalInteger(1, 256), default: 'pocketsphinx: cores, at most 3; ONNX: `1`',
    meaning: 'CPU threads for speech recognition (pocketsphinx: recognitions at once; ONNX: threads per recognition)',
  },
  { name: 'CLINDOC_ASR_MEDICAL', field: 'asrMedical', ...trueOrFalse(true), meaning: 'Mix the clinical language model into pocketsphinx' },
  { name: 'CLINDOC_ASR_CLINICAL_WEIGHT', field: 'asrClinicalWeight', ...share(0.1), meaning: 'Weight of the clinical language model mixed into pocketsphinx\'s' },
  { name: 'CLINDOC_POCKETSPHINX_LIB', field: 'pocketsphinxLib', ...text(), default: '`libpocketsphinx.so.3`', meaning: 'Native pocketsphinx library (name or path)' },
  { name: 'CLINDOC_SPHINXBASE_LIB', field: 'sphinxbaseLib', ...text(), default: '`libsphinxbase.so.3`', meaning: 'Native sphinxbase library pocketsphinx needs (name or path)' },
  { name: 'CLINDOC_VAD_THRESHOLD', field: 'vadThreshold', ...share(0.5), meaning: 'Silero speech probability that counts as speech' },
  { name: 'CLINDOC_FFMPEG_PATH', field: 'ffmpegPath', ...text({ fallback: 'ffmpeg' }), meaning: 'Audio decoder (a name on the PATH or a path)' },
  { name: 'CLINDOC_FFPROBE_PATH', field: 'ffprobePath', ...text({ fallback: 'ffprobe' }), meaning: 'Audio prober (a name on the PATH or a path)' },
  { name: 'CLINDOC_FFMPEG_TIMEOUT_MS', field: 'ffmpegTimeoutMs', ...integer(300_000, 1000, 3_600_000), meaning: 'Longest one file decode may take' },
  {
    name: 'CLINDOC_WORK_BUDGET_MS', field: 'workBudgetMs', ...integer(30_000, 100, 600_000),
    meaning: 'Longest one text-to-JSON, coding analysis, embedded note or style writing or macro detection may compute in its worker thread (422 beyond; waiting on a language model not counted), and longest it waits for a free worker (503 with `Retry-After`)',
  },
  { name: 'CLINDOC_WORK_THREADS', field: 'workThreads', ...integer(2, 1, 32), meaning: 'Worker threads for that work, started on first use' },
  { name: 'CLINDOC_VAD_MIN_COVERAGE', field: 'vadMinCoverage', ...share(0.8), meaning: 'Below this share of energy-detected speech found by Silero, batch VAD unites both' },
  { name: 'CLINDOC_ASR_BASE_URL', field: 'asrBaseUrl', ...httpUrl(), meaning: 'OpenAI-compatible transcription server' },
  { name: 'CLINDOC_ASR_MODEL', field: 'asrModel', ...text({ trim: false }), default: '`whisper-1`', meaning: 'Model name on that server' },
  { name: 'CLINDOC_ASR_API_KEY', field: 'asrApiKey', ...text({ trim: false }), secret: true, meaning: 'Bearer key for that server' },
  { name: 'CLINDOC_ASR_TIMEOUT_MS', field: 'asrTimeoutMs', ...integer(120_000, 100, 3_600_000), meaning: 'Longest one request to the transcription server may take (it carries a whole recording)' },
  { name: 'CLINDOC_ASR_MAX_RETRIES', field: 'asrMaxRetries', ...integer(2, 0, 10), meaning: 'Further attempts after a 429, a 5xx or a failed connection to the transcription server' },
  {
    name: 'CLINDOC_ENGINE_FAILURE', field: 'engineFailure', ...oneOf(['embedded', 'fail'] as const, 'embedded', (value) => `must be embedded or fail, not "${value.slice(0, 20)}"`),
    meaning: 'When a chosen model or server fails: `embedded` makes the note or transcript with the embedded engine, marked in `generatedBy.fallbackFrom` and the note\'s review list; `fail` fails it instead',
  },
  {
    name: 'CLINDOC_ENGINE_RETRY_AFTER_SECONDS', field: 'engineRetryAfterSeconds', ...integer(60, 0, 86_400),
    meaning: 'After a chosen engine failed, work goes straight to the embedded engine for this long before the chosen one is tried again',
  },
  {
    name: 'CLINDOC_ENGINE_CHECK_SECONDS', field: 'engineCheckSeconds', ...integer(60, 0, 86_400),
    meaning: 'How often each known language-model and speech server (the device\'s and those accounts set up) is checked in the background with `GET /models`, for `/v1/engines`; `0` never',
  },
  { name: 'CLINDOC_WEBHOOK_TIMEOUT_MS', field: 'webhookTimeoutMs', ...integer(10_000, 100, 120_000), meaning: 'Timeout of one webhook delivery attempt' },
  {
    name: 'CLINDOC_WEBHOOK_ALLOW', field: 'webhookAllow', ...commaList({ whole: (entries) => void parseWebhookAllow(entries) }), default: 'none (public addresses only)',
    meaning: 'Exceptions to the webhook destination policy: `loopback` (an integration on this computer) and CIDR ranges or addresses (a clinic\'s `10.20.0.0/16`)',
  },
  {
    name: 'CLINDOC_OPERATOR_ACCOUNTS', field: 'operatorAccounts', ...commaList(),
    meaning: 'Account ids holding the operator role (backups, model installs, code-set imports) besides the local account and `clindoc accounts create --operator`',
  },
  {
    name: 'CLINDOC_MODEL_IMPORT_DIRS', field: 'modelImportDirs', ...commaList({ map: (dir) => resolve(dir), otherwise: () => [homedir(), '/media', '/run/media', '/mnt', '/Volumes'] }),
    default: 'home folder, `/media`, `/run/media`, `/mnt`, `/Volumes`', meaning: 'Folders `POST /v1/models/import` may read from',
  },
  {
    name: 'CLINDOC_RENDERER_DIR', field: 'rendererDir', type: 'folder', default: 'the installation\'s `dist/renderer`', meaning: 'Built interface served at `/`',
    read: (env, name, context) => resolve(env[name]?.trim() || context.rendererDir),
  },
  {
    name: 'CLINDOC_DICTATE_SHORTCUT', readBy: 'the desktop app (main/app)', type: 'Electron accelerator', default: '`CommandOrControl+Shift+D`',
    meaning: 'Desktop: global shortcut (Electron accelerator) that starts/stops dictate-anywhere; `off` disables it ([docs/desktop.md](docs/desktop.md))',
  },
  {
    name: 'CLINDOC_TYPING', readBy: 'the desktop app (main/app)', type: 'one of', default: '`auto`', range: '`auto`, `xdotool`, `sendinput`, `cgevent`, `clipboard`',
    meaning: 'Desktop: how dictate-anywhere types: `auto`, `xdotool`, `sendinput`, `cgevent`, or `clipboard` (paste every final)',
  },
  {
    // Never quoted in the refusal: it is the key to every account's data.
    name: 'CLINDOC_ENCRYPTION_KEY', field: 'encryptionKey', secret: true,
    ...text({ pattern: /^[0-9a-fA-F]{64}$|^[A-Za-z0-9+/_-]{43}=?$/, refused: 'must be 32 bytes written as 64 hex digits or base64 (openssl rand -base64 32)' }),
    type: '32 bytes (64 hex digits or base64)', default: 'none (desktop: OS keychain; headless: generated `encryption.key`, owner-only)', meaning: 'Master key sealing the data keys (AES-256-GCM at rest)',
  },
  {
    name: 'CLINDOC_RETENTION_DAYS', field: 'retentionDays', ...integer(0, 0, 36_500), default: '`0` (keep)',
    meaning: 'Default retention of notes, transcriptions and audio; per account via `/v1/settings/retention`',
  },
  { name: 'CLINDOC_RETENTION_SWEEP_SECONDS', field: 'retentionSweepSeconds', ...integer(3600, 1, 86_400), meaning: 'How often the retention job runs' },
  {
    name: 'CLINDOC_MAX_AUDIO_SECONDS', field: 'maxAudioSeconds', ...integer(14_400, 1, 86_400),
    meaning: 'Longest decoded audio, in playing time whatever the channels (guards against decompression bombs)',
  },
  {
    name: 'CLINDOC_AUTH_MAX_FAILURES', field: 'authThrottle.maxFailures', ...integer(10, 1, 10_000),
    meaning: 'Wrong keys from one address for one account before a lockout (5x that from one address for any account locks the address)',
  },
  { name: 'CLINDOC_AUTH_WINDOW_SECONDS', field: 'authThrottle.windowSeconds', ...integer(900, 1, 86_400), meaning: 'How long wrong keys are remembered' },
  { name: 'CLINDOC_AUTH_LOCKOUT_SECONDS', field: 'authThrottle.lockoutSeconds', ...integer(60, 1, 86_400), meaning: 'First lockout (429 with `Retry-After`); doubles with each lockout in a row' },
  { name: 'CLINDOC_AUTH_MAX_LOCKOUT_SECONDS', field: 'authThrottle.maxLockoutSeconds', ...integer(3600, 1, 604_800), meaning: 'Longest lockout' },
  { name: 'CLINDOC_AUTH_DELAY_MS', field: 'authThrottle.delayMs', ...integer(250, 0, 10_000), meaning: 'Delay before answering the third wrong key, doubling up to 8x (0 = none)' },
  {
    name: 'CLINDOC_BACKUP_DIR', field: 'backupDir', ...path({ absolute: true }),
    meaning: 'Folder for automatic backups and `POST /v1/backups` (without one the API answers 409 and nothing runs automatically)',
  },
  { name: 'CLINDOC_BACKUP_INTERVAL_HOURS', field: 'backupIntervalHours', ...integer(24, 0, 8760), meaning: 'Hours between automatic backups into that folder (0 = only on request)' },
  { name: 'CLINDOC_BACKUP_KEEP', field: 'backupKeep', ...integer(7, 1, 1000), meaning: 'Backups kept in that folder; older ones are deleted after each new one' },
  {
    name: 'CLINDOC_CPT_TABLE', field: 'cptTablePath', ...path({ exists: 'file', absolute: true }),
    meaning: 'A licensed CPT table (CSV `code,descriptor`) whose descriptors coding analysis shows; never bundled (AMA licence)',
  },
  {
    name: 'CLINDOC_MODEL_MIRROR', field: 'models.mirror', ...httpUrl(), default: 'none (the publishers\' addresses)',
    meaning: 'A server holding the catalog\'s model files under the same paths; replaces the scheme and host of every download ([docs/models.md](docs/models.md))',
  },
  {
    name: 'CLINDOC_MODEL_CATALOG', field: 'models.catalogPath', ...path({ exists: 'file', absolute: true }), default: 'the bundled `resources/models/catalog.json`',
    meaning: 'A clinic\'s own catalog of approved models (same format)',
  },
  {
    name: 'CLINDOC_MODEL_IDLE_SECONDS', field: 'models.idleSeconds', ...integer(900, 0, 604_800),
    meaning: 'A loaded model engine (Whisper, llama.cpp) unused this long is unloaded to give its memory back; `0` keeps it loaded',
  },
  { name: 'CLINDOC_ACCOUNT_ID', readBy: 'the command line (main/cli/server-commands.ts)', type: 'text', default: 'none', meaning: 'Account `clindoc stream` uses when `--account` is not given' },
  { name: 'CLINDOC_API_KEY', readBy: 'the command line (main/cli/server-commands.ts)', type: 'text', default: 'none', secret: true, meaning: 'API key `clindoc stream` uses when `--key` is not given' },
] as const satisfies readonly ConfigVariable[];

/** A field no row fills would be `undefined` at run time: the compiler names it here instead. */
type Unfilled = Exclude<ConfigField, (typeof CONFIG_VARIABLES)[number] extends infer Row ? (Row extends { field: infer F } ? F : never) : never>;
const everyFieldHasARow: [Unfilled] extends [never] ? true : { unfilled: Unfilled } = true;
void everyFieldHasARow;

/** The rows `loadConfig` reads, in table order. */
export const FIELD_VARIABLES: readonly FieldVariable[] = (CONFIG_VARIABLES as readonly ConfigVariable[]).filter((row): row is FieldVariable => row.field !== undefined);
