import { existsSync } from 'node:fs';
import { buildCodeSet, readSourceFile } from './cms-parser.js';
import { importedCodesDir, writeCodeSetFile } from './code-table.js';

/** What `clindoc codes import` reports. */
export interface ImportedCodeSet {
  system: 'ICD-10-CM';
  edition: string;
  lines: number;
  billable: number;
  path: string;
  sha256: { order: string; tabular?: string };
}

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
  const path = writeCodeSetFile(importedCodesDir(dataDir), set);
  return {
    system: set.system, edition: set.edition, lines: set.source.order.lines, billable: set.source.order.billable, path,
    sha256: { order: order.sha256, ...(tabular ? { tabular: tabular.sha256 } : {}) },
  };
}
