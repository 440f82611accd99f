/**
 * ICD-10-CM editions of the installation: which code sets are present and the import of a newer
 * CMS release (Settings, `POST /v1/coding/editions`). The code set is installation-wide: one
 * table serves every account, as with `clindoc codes import`.
 */
import { DomainError, invalidRequest } from '../errors.js';

/** A code set present on disk. */
export interface CodeEditionInfo {
  edition: string;
  source: 'bundled' | 'imported';
  active: boolean;
  billable: number;
  lines: number;
  tabular: boolean;
}

/** An uploaded release file. */
export interface ReleaseFile {
  name: string;
  bytes: Buffer;
}

/** Port implemented in `main/engines/coding/import.ts` (the CLI's import module). */
export interface CodeSetStore {
  list(): CodeEditionInfo[];
  /** Parses and writes a release; throws an error named `CmsFormatError` for a malformed file. */
  importRelease(order: ReleaseFile, tabular?: ReleaseFile, edition?: string): { edition: string; lines: number; billable: number; sha256: { order: string; tabular?: string } };
}

export interface CodeEditionsService {
  list(): { active?: string; items: CodeEditionInfo[] };
  /** Throws when this installation takes no imports (a clinic server), before any upload is read. */
  refuseImport?(): void;
  importRelease(order: ReleaseFile, tabular?: ReleaseFile, edition?: string): {
    edition: string; lines: number; billable: number; active: boolean; sha256: { order: string; tabular?: string };
  };
}

const EDITION = /^[A-Za-z0-9._-]{1,40}$/;

export function createCodeEditionsService(deps: {
  store: CodeSetStore;
  /** Drops the loaded code table so the next coding request reads the newest edition. */
  reload(): void;
}): CodeEditionsService {
  return {
    list() {
      const items = deps.store.list();
      const active = items.find((i) => i.active)?.edition;
      return { ...(active ? { active } : {}), items };
    },
    importRelease(order, tabular, edition) {
      if (edition !== undefined && !EDITION.test(edition)) throw invalidRequest('edition: letters, digits, dot, dash or underscore, at most 40 (e.g. FY2025)');
      let result: ReturnType<CodeSetStore['importRelease']>;
      try {
        result = deps.store.importRelease(order, tabular, edition);
      } catch (err) {
        if (err instanceof DomainError) throw err;
        // The parser names the line or element at fault; that is about the file, never about a patient.
        if ((err as Error).name === 'CmsFormatError') throw invalidRequest((err as Error).message);
        throw err;
      }
      deps.reload();
      const active = deps.store.list().find((i) => i.active)?.edition === result.edition;
      return { ...result, active };
    },
  };
}
