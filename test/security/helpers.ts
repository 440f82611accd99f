import { wavFile } from '../support/audio.js';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under a folder (the data folder: database, WAL, key files, blobs). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

/** Files whose raw bytes contain `marker` (as UTF-8, and as UTF-16LE in case SQLite stored it so). */
export function filesContaining(dir: string, marker: string): string[] {
  const needles = [Buffer.from(marker, 'utf8'), Buffer.from(marker, 'utf16le')];
  return filesUnder(dir).filter((path) => {
    const bytes = readFileSync(path);
    return needles.some((n) => bytes.includes(n));
  });
}

/** Headers for an account's REST calls. */
export const authHeaders = (account: { accountId: string; apiKey: string }, extra: Record<string, string> = {}): Record<string, string> => ({
  'X-API-KEY': account.apiKey, 'X-ACCOUNT-ID': account.accountId, 'content-type': 'application/json', ...extra,
});

/** A valid 16 kHz mono WAV whose sample bytes spell `marker` repeatedly (a stand-in for a recording). */
export function markedWav(marker: string, seconds = 0.5): Uint8Array<ArrayBuffer> {
  const sampleRate = 16000;
  const data = Buffer.alloc(Math.round(seconds * sampleRate) * 2);
  const m = Buffer.from(marker, 'utf8');
  for (let i = 0; i + m.length <= data.length; i += m.length * 4) m.copy(data, i);
  return wavFile(data, sampleRate);
}
