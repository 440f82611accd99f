/**
 * Where the development scripts (evaluations, benchmarks, the clinical language-model build) find
 * their data sets. One variable, `CLINDOC_EVAL_DATA`, default `../shared/data` beside the
 * repository root: never `CLINDOC_DATA_DIR`, which is the app's own data folder (database, audio,
 * keys) and must not be read as a folder of data sets. The default is resolved from this file, not
 * the working directory, so a script gives the same answer from any folder.
 */
import { resolve } from 'node:path';

/** The repository root (the folder holding `package.json`). */
export const REPO_ROOT = resolve(import.meta.dirname, '..');

/** The variable that points the scripts at their data sets. */
export const EVAL_DATA_VARIABLE = 'CLINDOC_EVAL_DATA';

/**
 * The data-set folder: `CLINDOC_EVAL_DATA` (a relative value is taken from the working directory,
 * as a shell user expects), else `../shared/data` relative to the repository root.
 * The folder is optional: every script skips, saying so, when what it needs is absent.
 */
export function evalDataDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env[EVAL_DATA_VARIABLE]?.trim();
  return configured ? resolve(configured) : resolve(REPO_ROOT, '..', 'shared', 'data');
}

/** A path inside the data-set folder, e.g. `evalDataPath('aci-bench', 'valid.csv')`. */
export function evalDataPath(...parts: string[]): string {
  return resolve(evalDataDir(), ...parts);
}
