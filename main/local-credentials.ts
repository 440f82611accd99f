/** Where the desktop app finds the local account's key: an owner-only file in the data folder. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file where the local account's key is kept for the desktop app (owner-only). */
export const localCredentialsPath = (dataDir: string): string => join(dataDir, 'local-credentials.json');

export function readLocalCredentials(dataDir: string): { accountId: string; apiKey: string } | undefined {
  const path = localCredentialsPath(dataDir);
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as { accountId: string; apiKey: string };
}
