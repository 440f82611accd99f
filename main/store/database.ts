import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** Longest one statement waits for another process's lock, blocking the event loop meanwhile. */
export const BUSY_TIMEOUT_MS = 100;

/**
 * Opens (creating if needed) the SQLite database in WAL mode and applies pending migrations.
 * `path` may be ':memory:' for throwaway stores.
 */
export function openDatabase(path: string): Db {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Owner-only, whatever the umask or an older install left: SQLite gives -wal/-shm the same mode.
    if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
    for (const extra of [`${path}-wal`, `${path}-shm`]) if (existsSync(extra)) chmodSync(extra, 0o600);
  }
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // SQLite waits for a lock held by another process (a `clindoc` command, a backup tool) by sleeping
  // on this thread, and this thread answers every request and live dictation: 5 s here froze
  // `/healthz` for 10 s behind a 12 s lock (issue 29). A statement now gives up after a short wait;
  // a request answers 503 with Retry-After, the audit trail and the job queue try again later.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Deleted rows are overwritten with zeros, so a retention or user delete leaves no readable page behind.
  db.pragma('secure_delete = ON');
  migrate(db);
  return db;
}

/** Applies every migration above the database's `user_version`, each in its own transaction. */
export function migrate(db: Db): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return MIGRATIONS.length;
}
