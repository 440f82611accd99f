import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { loadConfig } from '../../main/config.js';
import { createClindoc, saveLocalCredentials, type Clindoc, type ComposeOptions } from '../../main/composition.js';
import { waitFor } from './wait.js';
import { filesContaining } from './files.js';
import { databaseEnv, dropDatabaseOf, queryRows, tablesContaining } from './database.js';

export interface TestServer {
  clindoc: Clindoc;
  base: string;
  port: number;
  dataDir: string;
  /** Every log line the server wrote. */
  logs: string[];
  creds: { accountId: string; apiKey: string };
  headers(extra?: Record<string, string>): Record<string, string>;
  /**
   * Rows of a statement on the account data, wherever it is kept: the SQLite file or the server's
   * PostgreSQL database (`?` placeholders either way; the two schemas name tables and columns
   * alike); none for a statement that returns none. Works after `clindoc.close()` too (a read-only
   * connection on SQLite then), until `close()`.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * Where `marker` is kept in the clear: files under the data (and shared) folder whose bytes hold it (UTF-8 or
   * UTF-16LE; SQLite's write-ahead log is checkpointed first) and, on PostgreSQL, tables with a row
   * that holds it. Empty when everything is sealed.
   */
  storedContaining(marker: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Boots the real local API (HTTP on a loopback port) in a fresh temp folder: its data in SQLite
 * there, or with CLINDOC_TEST_DATABASE=postgres in a fresh PostgreSQL database dropped on close
 * (support/database.ts). A test that names its own CLINDOC_DATA_DIR keeps that folder's database
 * across restarts until the test file ends.
 */
export async function startServer(env: Record<string, string> = {}, options: ComposeOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-test-'));
  const { CLINDOC_DATA_DIR: chosenFolder } = env;
  const ownFolder = !chosenFolder;
  const database = await databaseEnv(chosenFolder ?? dataDir, env);
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  let clindoc: Clindoc;
  try {
    // The tests' webhook receivers listen on loopback and their model files sit in the temp folder, as a
    // desktop integration's would with CLINDOC_WEBHOOK_ALLOW=loopback; a test of those policies sets its own.
    const config = loadConfig({
      CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'info', CLINDOC_WEBHOOK_ALLOW: 'loopback', CLINDOC_MODEL_IMPORT_DIRS: tmpdir(),
      ...database, ...env,
    }, dataDir);
    // A clinic server makes no account of its own; the tests' servers have one on either backend.
    // Every answer is checked against its route's success schema: a route that breaks its published promise fails the test that calls it.
    clindoc = await createClindoc(config, { logDestination: sink, createLocalAccount: true, validateResponses: true, ...options });
    // As the entry points do, so a test's data folder is the one a real start leaves.
    saveLocalCredentials(config.dataDir, clindoc.localCredentials);
  } catch (err) {
    if (ownFolder) await dropDatabaseOf(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const port = await clindoc.listen();
  const creds = clindoc.localCredentials!;
  return {
    clindoc, port, dataDir, logs, creds,
    base: `http://127.0.0.1:${port}`,
    headers: (extra = {}) => ({ 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, 'content-type': 'application/json', ...extra }),
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const url = clindoc.config.databaseUrl;
      if (url) return queryRows<T>(url, sql, params);
      // After close the composition's connection is gone; a read-only one sees what it wrote.
      const db = clindoc.db.open ? clindoc.db : new Database(join(clindoc.config.dataDir, 'clindoc.db'), { readonly: true });
      try {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...params) as T[];
        statement.run(...params);
        return [];
      } finally {
        if (db !== clindoc.db) db.close();
      }
    },
    async storedContaining(marker) {
      if (clindoc.db.open) clindoc.db.pragma('wal_checkpoint(TRUNCATE)');
      const folders = [clindoc.config.dataDir, ...(clindoc.config.sharedDir ? [clindoc.config.sharedDir] : [])];
      const files = folders.flatMap((dir) => filesContaining(dir, marker));
      const url = clindoc.config.databaseUrl;
      return url ? [...files, ...(await tablesContaining(url, marker))] : files;
    },
    async close() {
      await clindoc.close();
      if (ownFolder) await dropDatabaseOf(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { waitFor };

/** Polls `GET /v1/notes/{noteId}` until the note is done or failed; resolves with its `data`. */
export function finishedNote(s: Pick<TestServer, 'base' | 'headers'>, noteId: string): Promise<any> {
  return waitFor(async () => {
    const body = await (await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).json();
    return body.data.status === 'STATUS_DONE' || body.data.status === 'STATUS_FAILED' ? body.data : undefined;
  });
}
