import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { dotted, type CodeEntry, type CodeNotes, type CodeTable } from '../../services/coding/ports.js';
import type { CodeSetFile } from './cms-parser.js';

/** Folder of the code set bundled with Clindoc (`resources/codes`). */
export const BUNDLED_CODES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../resources/codes');
/** Where `clindoc codes import` puts newer releases, inside the data folder. */
export const importedCodesDir = (dataDir: string): string => join(dataDir, 'codes');

/** Builds the look-up structure of one serialised code set. */
export function createCodeTable(set: CodeSetFile): CodeTable {
  const entries: CodeEntry[] = [];
  const byBare = new Map<string, number>();
  for (const line of set.codes.split('\n')) {
    const [bare, flag, title] = line.split('\t');
    if (!bare || title === undefined) continue;
    byBare.set(bare, entries.length);
    entries.push({ code: dotted(bare), billable: flag === '1', title });
  }
  // The tree follows from the codes: a code's parent is its longest proper prefix in the table.
  const parentOf: (number | undefined)[] = new Array(entries.length);
  const childrenOf = new Map<number, number[]>();
  entries.forEach((e, i) => {
    const bare = e.code.replace('.', '');
    for (let len = bare.length - 1; len >= 3; len--) {
      const p = byBare.get(bare.slice(0, len));
      if (p !== undefined) {
        parentOf[i] = p;
        let list = childrenOf.get(p);
        if (!list) childrenOf.set(p, (list = []));
        list.push(i);
        break;
      }
    }
  });
  const index = (code: string): number | undefined => byBare.get(code.replace('.', '').toUpperCase().trim());
  const billableUnder = (i: number, out: CodeEntry[]): void => {
    if (entries[i]!.billable) out.push(entries[i]!);
    for (const c of childrenOf.get(i) ?? []) billableUnder(c, out);
  };
  const counts = { codes: entries.length, billable: entries.filter((e) => e.billable).length };
  return {
    system: 'ICD-10-CM',
    edition: set.edition,
    counts,
    get: (code) => {
      const i = index(code);
      return i === undefined ? undefined : entries[i];
    },
    parent: (code) => {
      const i = index(code);
      const p = i === undefined ? undefined : parentOf[i];
      return p === undefined ? undefined : entries[p];
    },
    children: (code) => {
      const i = index(code);
      return i === undefined ? [] : (childrenOf.get(i) ?? []).map((c) => entries[c]!);
    },
    billableUnder: (code) => {
      const i = index(code);
      const out: CodeEntry[] = [];
      if (i !== undefined) billableUnder(i, out);
      return out;
    },
    notes: (code): CodeNotes | undefined => set.notes[code.replace('.', '').toUpperCase()],
    entries: () => entries,
  };
}

/** Reads a serialised code set (`.json.gz`) and checks it is one. */
export function readCodeSetFile(path: string): CodeSetFile {
  const raw = readFileSync(path);
  const set = JSON.parse((raw[0] === 0x1f ? gunzipSync(raw) : raw).toString('utf8')) as CodeSetFile;
  if (set.format !== 'clindoc-icd10cm/1' || typeof set.codes !== 'string' || typeof set.edition !== 'string') {
    throw new Error(`${path} is not a Clindoc ICD-10-CM code set`);
  }
  return set;
}

/** The file name of an edition's code set. */
export const codeSetFileName = (edition: string): string => `icd10cm-${edition.replace(/[^A-Za-z0-9._-]/g, '_')}.json.gz`;

/** Writes a code set atomically (a half-written file is never picked up). */
export function writeCodeSetFile(dir: string, set: CodeSetFile): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, codeSetFileName(set.edition));
  try {
    writeFileSync(`${path}.tmp`, gzipSync(JSON.stringify(set), { level: 9 }));
    renameSync(`${path}.tmp`, path);
  } catch (err) {
    // A full disk leaves a cut-short file: remove it, so the space comes back with the 507.
    rmSync(`${path}.tmp`, { force: true });
    throw err;
  }
  return path;
}

/** Orders editions: `FY2025` after `FY2021`, then plain string order. */
const editionKey = (edition: string): string => (/(\d{4})/.exec(edition)?.[1] ?? '0000') + edition;

/**
 * The newest code set among the bundled one and those imported into the data folder:
 * a clinic that imports next October's release gets it without an update of Clindoc.
 */
export function findNewestCodeSet(dirs: string[]): string | undefined {
  let best: { path: string; key: string } | undefined;
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const m = /^icd10cm-(.+)\.json\.gz$/.exec(name);
      if (!m) continue;
      const key = editionKey(m[1]!);
      if (!best || key > best.key) best = { path: join(dir, name), key };
    }
  }
  return best?.path;
}

/** Loads the newest code set (bundled or imported); undefined when none is present. */
export function loadCodeTable(options: { dataDir?: string; bundledDir?: string } = {}): CodeTable | undefined {
  const dirs = [options.bundledDir ?? BUNDLED_CODES_DIR, ...(options.dataDir ? [importedCodesDir(options.dataDir)] : [])];
  const path = findNewestCodeSet(dirs);
  return path ? createCodeTable(readCodeSetFile(path)) : undefined;
}
