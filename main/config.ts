/**
 * Loading Clindoc's configuration. Which variables exist, their defaults, ranges and meanings are
 * main/config-table.ts's; the shape the program reads is main/config-shape.ts's; this module walks
 * the table and holds the rules between variables.
 */
import { existsSync } from 'node:fs';
import { locateAppFiles, type AppFiles } from './app-files.js';
import type { ClindocConfig } from './config-shape.js';
import { FIELD_VARIABLES, type FieldVariable } from './config-table.js';
import { checkoutRoot, ConfigError, type Env } from './config-values.js';

export { ConfigError, platformDataDir } from './config-values.js';
export type { AuthThrottleSettings, BundledResources, ClindocConfig, ModelSettings, ServerRole } from './config-shape.js';

/** Whether a listen address reaches this computer only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Reads and validates the configuration: each variable of the table on its own, then the rules
 * between variables, then the files and folders that must exist. Throws ConfigError naming the
 * first bad variable.
 * @param cwd decides only the data folder's default (`./data` when it is a checkout)
 * @param files the app's bundled files; default found from this module (main/app passes the
 *   packaged app's resources path)
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd(), files: AppFiles = locateAppFiles()): ClindocConfig {
  const context = { checkout: checkoutRoot(cwd), rendererDir: files.rendererDir };
  const config: Record<string, unknown> = { resources: { asrDir: files.asrDir, promptsDir: files.promptsDir, codesDir: files.codesDir, modelsDir: files.modelsDir } };
  const paths: Array<{ name: string; exists: NonNullable<FieldVariable['exists']>; value: string }> = [];
  for (const row of FIELD_VARIABLES) {
    const value = row.read(env, row.name, context);
    if (value === undefined) continue; // an unset optional field stays absent, not `undefined`
    place(config, row.field, value);
    if (row.exists && typeof value === 'string') paths.push({ name: row.name, exists: row.exists, value });
  }
  // Complete: config-table.ts fails to compile while a field has no row.
  const loaded = config as unknown as ClindocConfig;
  for (const rule of RULES) rule(loaded);
  for (const { name, exists, value } of paths) {
    if (!existsSync(value)) throw new ConfigError(name, exists.message ?? `${exists.kind} does not exist`);
  }
  return loaded;
}

/** Puts a value at `authThrottle.maxFailures`-style paths, making the groups on the way. */
function place(target: Record<string, unknown>, field: string, value: unknown): void {
  const [head, ...rest] = field.split('.');
  if (!rest.length) {
    target[head!] = value;
    return;
  }
  const group = (target[head!] ??= {}) as Record<string, unknown>;
  place(group, rest.join('.'), value);
}

/** Rules between variables, in the order they are checked. */
const RULES: ReadonlyArray<(config: ClindocConfig) => void> = [
  (config) => {
    if (config.llmBaseUrl && !config.llmModel) throw new ConfigError('CLINDOC_LLM_MODEL', 'is required when CLINDOC_LLM_BASE_URL is set');
  },
  ({ tls }) => {
    if (tls && !(tls.certPath && tls.keyPath)) throw new ConfigError(tls.certPath ? 'CLINDOC_TLS_KEY' : 'CLINDOC_TLS_CERT', 'CLINDOC_TLS_CERT and CLINDOC_TLS_KEY are set together');
  },
  // A non-loopback listen address without TLS or a declared TLS proxy would carry API keys and
  // patient audio across the clinic's network in clear.
  ({ host, tls, behindTlsProxy }) => {
    if (!isLoopbackHost(host) && !tls && !behindTlsProxy) {
      throw new ConfigError('CLINDOC_HOST', `"${host}" is reachable from the network: set CLINDOC_TLS_CERT and CLINDOC_TLS_KEY, or CLINDOC_BEHIND_TLS_PROXY=true when a TLS proxy sits in front`);
    }
  },
  // Every instance must open the same key ring: a key generated into one data folder would leave the others unable to read.
  ({ databaseUrl, encryptionKey }) => {
    if (databaseUrl && !encryptionKey) throw new ConfigError('CLINDOC_ENCRYPTION_KEY', 'is required with CLINDOC_DATABASE_URL: every instance must share one master key');
  },
  // Split roles share work through the PostgreSQL queue. On SQLite an API-only process would queue
  // notes nobody writes, and each process starting would take back the jobs another one is running.
  ({ role, databaseUrl }) => {
    if (role !== 'all' && !databaseUrl) throw new ConfigError('CLINDOC_ROLE', `${role} needs CLINDOC_DATABASE_URL (a shared PostgreSQL database); on SQLite one process does both (all)`);
  },
];
