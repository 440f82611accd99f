/**
 * The shape of Clindoc's configuration, as the rest of the program reads it. What each field means,
 * the variable that sets it, its default and its range are written once, in main/config-table.ts;
 * the compiler holds the two together (each row's reader gives its field's type, and every field
 * below has a row: see `ConfigField` and the check at the end of config-table.ts).
 */
import type { AppFiles } from './app-files.js';

export type ServerRole = 'api' | 'worker' | 'all';

/** Bundled resource folders (see {@link AppFiles}): found from where Clindoc is installed, never configured. */
export type BundledResources = Pick<AppFiles, 'asrDir' | 'promptsDir' | 'codesDir' | 'modelsDir'>;

/** Where models come from and how long they stay loaded (the model manager and the engine registry). */
export interface ModelSettings {
  mirror?: string;
  catalogPath?: string;
  idleSeconds: number;
}

/** The failed-authentication throttle (main/services/auth-throttle). */
export interface AuthThrottleSettings {
  maxFailures: number;
  windowSeconds: number;
  lockoutSeconds: number;
  maxLockoutSeconds: number;
  delayMs: number;
}

/** Clindoc's configuration, read from environment variables by `loadConfig` (main/config.ts). */
export interface ClindocConfig {
  // The listener and who may reach it.
  port: number;
  host: string;
  tls?: { certPath: string; keyPath: string };
  behindTlsProxy: boolean;
  trustedProxies: string[];
  metricsToken?: string;
  drainSeconds: number;
  requestTimeoutSeconds: number;
  maxConnections: number;
  openedCacheMb: number;
  // A clinic server: shared database and folder, and this process's role.
  databaseUrl?: string;
  sharedDir?: string;
  role: ServerRole;
  jobExpireSeconds: number;
  // Data, logs and request limits.
  dataDir: string;
  logLevel: string;
  rateLimit: number;
  rateWindowSeconds: number;
  bodyLimitBytes: number;
  maxAudioBytes: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  corsOrigins: string[];
  jobConcurrency: number;
  jobMaxAttempts: number;
  // Live dictation.
  streamTokenTtlSeconds: number;
  streamMaxSessionsPerAccount: number;
  streamIdleTimeoutSeconds: number;
  streamMaxSessionSeconds: number;
  streamMaxMessageBytes: number;
  // Language models.
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKey?: string;
  llmModelPath?: string;
  llmThreads?: number;
  llmTimeoutMs: number;
  llmMaxRetries?: number;
  llmStream: boolean;
  llmContextSize?: number;
  // Speech.
  asrEngine: string;
  asrModelDir?: string;
  asrThreads?: number;
  asrMedical: boolean;
  asrClinicalWeight: number;
  pocketsphinxLib?: string;
  sphinxbaseLib?: string;
  vadThreshold: number;
  ffmpegPath: string;
  ffprobePath: string;
  ffmpegTimeoutMs: number;
  workBudgetMs: number;
  workThreads: number;
  vadMinCoverage: number;
  asrBaseUrl?: string;
  asrModel?: string;
  asrApiKey?: string;
  asrTimeoutMs: number;
  asrMaxRetries: number;
  // When an engine fails.
  engineFailure: 'embedded' | 'fail';
  engineRetryAfterSeconds: number;
  engineCheckSeconds: number;
  // Webhooks, operators, models, the interface.
  webhookTimeoutMs: number;
  webhookAllow: string[];
  operatorAccounts: string[];
  modelImportDirs: string[];
  rendererDir: string;
  /** The bundled resources; no environment variable: they ship with the code. */
  resources: BundledResources;
  // Keys, retention, audio limits.
  encryptionKey?: string;
  retentionDays: number;
  retentionSweepSeconds: number;
  maxAudioSeconds: number;
  authThrottle: AuthThrottleSettings;
  // Backups, coding, the model manager.
  backupDir?: string;
  backupIntervalHours: number;
  backupKeep: number;
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
