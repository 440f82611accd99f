/**
 * What a `clindoc` command may open, opened on first use and closed when the command ends: the
 * configuration, the data folder's database, the accounts (the clinic's PostgreSQL when
 * CLINDOC_DATABASE_URL is set: the data folder then keeps only this machine's records) and the key ring. Account commands then work without touching keys,
 * and `stream` or `serve` open nothing here at all.
 */
import { join } from 'node:path';
import { ConfigError, loadConfig, type ClindocConfig } from '../config.js';
import { createAccountService, type AccountService } from '../services/accounts/account-service.js';
import type { RetentionStore } from '../services/audit/ports.js';
import { createAccountStore } from '../store/account-store.js';
import { createRetentionStore } from '../store/audit-store.js';
import { KeyRingError, openDataProtection, type DataProtection } from '../store/crypto/index.js';
import { openDatabase, type Db } from '../store/database.js';

/** A command's refusal: printed as `clindoc: MESSAGE`, the process exits with `code`. */
export class CliFailure extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
    this.name = 'CliFailure';
  }
}

/** Stops the command with a message (exit status 1 unless given). */
export function fail(message: string, code = 1): never {
  throw new CliFailure(message, code);
}

export interface CliAccounts {
  service: AccountService;
  retention: RetentionStore;
}

export interface CliSession {
  /** The configuration; a bad one stops the command with exit status 2, as it stops the server. */
  config(): ClindocConfig;
  database(): Db;
  accounts(): Promise<CliAccounts>;
  /** The key ring and field cipher; opened only by the commands that need keys. */
  protection(): DataProtection;
  warn(message: string): void;
  close(): Promise<void>;
}

export function createCliSession(): CliSession {
  let config: ClindocConfig | undefined;
  let db: Db | undefined;
  /** The accounts once opened, and how to close what holds them (a PostgreSQL pool on a clinic server). */
  let accounts: { opened: CliAccounts; close(): Promise<void> } | undefined;
  const warn = (message: string): void => void process.stderr.write(`clindoc: warning: ${message}\n`);
  const session: CliSession = {
    config() {
      try {
        return (config ??= loadConfig());
      } catch (err) {
        if (err instanceof ConfigError) fail(`configuration error: ${err.message}`, 2);
        throw err;
      }
    },
    database: () => (db ??= openDatabase(join(session.config().dataDir, 'clindoc.db'))),
    async accounts() {
      if (accounts) return accounts.opened;
      const { databaseUrl } = session.config();
      if (databaseUrl) {
        const pg = await (await import('../store/pg/index.js')).openPostgresAccounts(databaseUrl);
        accounts = { opened: { service: createAccountService({ store: pg.accounts }), retention: pg.retention }, close: () => pg.close() };
      } else {
        const database = session.database();
        const opened = { service: createAccountService({ store: createAccountStore(database) }), retention: createRetentionStore(database) };
        accounts = { opened, close: async () => undefined };
      }
      return accounts.opened;
    },
    protection() {
      const { dataDir, sharedDir, encryptionKey } = session.config();
      // Opening the database makes the data folder, where a generated key and the key ring are written.
      session.database();
      try {
        return openDataProtection({ dataDir, ...(sharedDir ? { ringDir: sharedDir } : {}), ...(encryptionKey ? { environmentKey: encryptionKey } : {}), warn });
      } catch (err) {
        if (err instanceof KeyRingError) fail(err.message);
        throw err;
      }
    },
    warn,
    async close() {
      db?.close();
      await accounts?.close();
    },
  };
  return session;
}
