/**
 * Part of the one composition: ICD-10-CM coding. The code table is read at the first coding request,
 * not at start (most runs never code); Settings imports a CMS release with the CLI's import module,
 * and the next coding request reads the newest edition. The analysis runs in the compute pool.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComputePool } from './services/compute/ports.js';
import { offloadedCoding, type TextEngineOf } from './services/compute/offloaded.js';
import type { CodingService } from './services/coding/coding-service.js';
import { createIcdCoder, type IcdCoder } from './services/coding/icd-coder.js';
import { createCodeEditionsService, type CodeEditionsService } from './services/coding/code-editions.js';
import { engineUnavailable } from './services/errors.js';
import { loadCodeTable } from './engines/coding/code-table.js';
import { importCodeSetBytes, listCodeSets } from './engines/coding/import.js';
import { readCodingLexicon } from './engines/coding/lexicon-file.js';

export interface ComposedCoding {
  coding: CodingService;
  codeEditions: CodeEditionsService;
}

export function composeCoding(config: ClindocConfig, logger: Logger, compute: ComputePool, textEngineOf: TextEngineOf): ComposedCoding {
  let icdCoder: IcdCoder | undefined;
  const coder = (): IcdCoder => {
    if (icdCoder) return icdCoder;
    const table = loadCodeTable({ bundledDir: config.resources.codesDir, dataDir: config.dataDir });
    if (!table) throw engineUnavailable('coding: no ICD-10-CM code set (bundled resources/codes, or clindoc codes import)');
    icdCoder = createIcdCoder(table, readCodingLexicon(join(config.resources.codesDir, 'synonyms.json')));
    for (const warning of icdCoder.warnings) logger.warn({ edition: table.edition }, warning);
    return icdCoder;
  };
  const codeEditions = createCodeEditionsService({
    store: {
      list: () => listCodeSets(config.dataDir, config.resources.codesDir),
      importRelease: (order, tabular, edition) => importCodeSetBytes(config.dataDir, order, tabular, edition),
    },
    reload: () => {
      icdCoder = undefined;
      compute.recycle(); // the workers' coders read the new edition
    },
  });
  return { coding: offloadedCoding(compute, () => coder().edition, textEngineOf), codeEditions };
}
