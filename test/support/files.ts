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
