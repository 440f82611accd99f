import { existsSync, readdirSync } from 'node:fs';
import { buildCodeSet, readSourceFile, sourceFromBytes, type CodeSetFile, type SourceFile } from './cms-parser.js';
import { BUNDLED_CODES_DIR, findNewestCodeSet, importedCodesDir, readCodeSetFile, writeCodeSetFile } from './code-table.js';
import { join } from 'node:path';
import type { CodeEditionInfo } from '../../services/coding/code-editions.js';

/** What `clindoc codes import` reports. */
export interface ImportedCodeSet {
  system: 'ICD-10-CM';
  edition: string;
  lines: number;
  billable: number;
  path: string;
  sha256: { order: string; tabular?: string };
}

const report = (set: CodeSetFile, path: string, order: SourceFile, tabular?: SourceFile): ImportedCodeSet => ({
  system: set.system, edition: set.edition, lines: set.source.order.lines, billable: set.source.order.billable, path,
  sha256: { order: order.sha256, ...(tabular ? { tabular: tabular.sha256 } : {}) },
});

/**
 * Loads a CMS ICD-10-CM release (order file, optionally the tabular XML; plain or gzip) into the
 * data folder with the parser that built the bundled code set. Clindoc uses the newest edition
 * present from its next start.
 */
export function importCodeSet(dataDir: string, orderPath: string, tabularPath?: string, edition?: string): ImportedCodeSet {
  for (const p of [orderPath, tabularPath]) if (p && !existsSync(p)) throw new Error(`no such file: ${p}`);
  const order = readSourceFile(orderPath);
  const tabular = tabularPath ? readSourceFile(tabularPath) : undefined;
  const set = buildCodeSet(order, tabular, edition);
  return report(set, writeCodeSetFile(importedCodesDir(dataDir), set), order, tabular);
}

/**
 * The same import from uploaded bytes (Settings, `POST /v1/coding/editions`): the same parser and
 * the same file in the data folder, so the CLI and the interface cannot disagree on a release.
 * A malformed file throws `CmsFormatError` before anything is written.
 */
export function importCodeSetBytes(
  dataDir: string, order: { name: string; bytes: Buffer }, tabular?: { name: string; bytes: Buffer }, edition?: string,
): ImportedCodeSet {
  const o = sourceFromBytes(order.name, order.bytes);
  const t = tabular ? sourceFromBytes(tabular.name, tabular.bytes) : undefined;
  const set = buildCodeSet(o, t, edition);
  return report(set, writeCodeSetFile(importedCodesDir(dataDir), set), o, t);
}

/** One code set present on disk (the shape the editions service lists). */
export type CodeSetOnDisk = CodeEditionInfo;

/** The bundled and imported code sets, newest first; `active` marks the one coding loads. */
export function listCodeSets(dataDir: string, bundledDir: string = BUNDLED_CODES_DIR): CodeSetOnDisk[] {
  const dirs = [bundledDir, importedCodesDir(dataDir)];
  const newest = findNewestCodeSet(dirs);
  const out: (CodeSetOnDisk & { key: string })[] = [];
  dirs.forEach((dir, i) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      if (!/^icd10cm-.+\.json\.gz$/.test(name)) continue;
      const path = join(dir, name);
      try {
        const set = readCodeSetFile(path);
        out.push({
          edition: set.edition, source: i === 0 ? 'bundled' : 'imported', active: path === newest,
          billable: set.source.order.billable, lines: set.source.order.lines, tabular: Boolean(set.source.tabular),
          key: (/(\d{4})/.exec(set.edition)?.[1] ?? '0000') + set.edition,
        });
      } catch {
        // A damaged file is not an edition; loading it would fail the same way.
      }
    }
  });
  return out.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0)).map(({ key: _key, ...rest }) => rest);
}
