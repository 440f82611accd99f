/** Where the desktop app finds the local account's key: an owner-only file in the data folder. */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file where the local account's key is kept for the desktop app (owner-only). */
export const localCredentialsPath = (dataDir: string): string => join(dataDir, 'local-credentials.json');

export function readLocalCredentials(dataDir: string): { accountId: string; apiKey: string } | undefined {
  const path = localCredentialsPath(dataDir);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as { accountId: string; apiKey: string };
}

/**
 * Keeps the local account a start just made (`Clindoc.localCredentials`) in the owner-only file, for
 * the app and for `clindoc credentials`, which shows it again: the key itself is stored only hashed.
 * The process entry points call it (headless.ts, the desktop app), not the composition, which writes
 * no file of its own; nothing to do when this start made no account.
 */
export function saveLocalCredentials(dataDir: string, credentials: { accountId: string; apiKey: string } | undefined): void {
  if (!credentials) return;
  const path = localCredentialsPath(dataDir);
  writeFileSync(path, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  chmodSync(path, 0o600);
}
