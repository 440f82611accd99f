import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodingLexicon } from '../../services/coding/lexicon.js';
import { BUNDLED_CODES_DIR } from './code-table.js';

/** The synonym and abbreviation index bundled with Clindoc. */
export const BUNDLED_LEXICON_PATH = join(BUNDLED_CODES_DIR, 'synonyms.json');

/** Reads the coder's synonym index (JSON data, see `resources/codes/README.md`). */
export function readCodingLexicon(path: string = BUNDLED_LEXICON_PATH): CodingLexicon {
  const data = JSON.parse(readFileSync(path, 'utf8')) as CodingLexicon;
  if (!Array.isArray(data.concepts) || !Array.isArray(data.qualifiers)) throw new Error(`${path} is not a coding synonym index`);
  return data;
}
