/**
 * The text normaliser shared by the clinical LM builder and the WER script, so that the language
 * model, the reference transcripts and the hypotheses are compared in one spelling:
 * lowercase; digits spoken as words ("120" -> "one hundred twenty", "1.5" -> "one point five");
 * "%" -> "percent", "/" -> "over", "&" -> "and"; hyphens split words; every other punctuation mark
 * removed except apostrophes inside words; whitespace collapsed.
 */

import { spellNumber } from '../../../services/clinical-language/number-words.js';
import { stripSpeakerTags } from '../../../services/clinical-language/tokenize.js';

/** Normalises text to lowercase words (see the module comment for the rules). */
export function normalizeWords(text: string): string[] {
  const t = text
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/(\d+(?:\.\d+)?)/g, ' $1 ')
    .replace(/%/g, ' percent ')
    .replace(/&/g, ' and ')
    .replace(/\//g, ' over ')
    .replace(/[-–—]/g, ' ');
  const out: string[] = [];
  for (const raw of t.split(/\s+/)) {
    if (!raw) continue;
    if (/^\d+(\.\d+)?$/.test(raw)) {
      out.push(...spellNumber(raw).split(' '));
      continue;
    }
    const w = raw.replace(/[^a-z']/g, '').replace(/^'+|'+$/g, '');
    if (w) out.push(w);
  }
  return out;
}

/** Splits running text into sentences (., ?, !, ; or line breaks) of normalised words. */
export function normalizeSentences(text: string): string[][] {
  return stripSpeakerTags(text)
    .split(/(?<!\d)[.?!;:](?!\d)|\n+/)
    .map(normalizeWords)
    .filter((s) => s.length > 0);
}
