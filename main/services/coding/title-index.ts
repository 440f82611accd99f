/**
 * Every title and inclusion term of the table as a phrase, so a diagnosis written the way the
 * classification names it ("plantar fascial fibromatosis", "iron deficiency anemia") is found
 * even when the synonym index does not list it.
 */
import type { CodeEntry, CodeTable } from './ports.js';
import { phraseKeysOf, STOP_WORDS, type Word } from './words.js';

/** A phrase of the table found in a text. */
export interface TitleHit {
  entry: CodeEntry;
  /** Index of the first and one past the last word in the words searched. */
  from: number;
  to: number;
}

export interface TitleIndex {
  find(words: readonly Word[]): TitleHit[];
  readonly size: number;
}

const MAX_WORDS = 10;
/** Chapters whose titles are not diagnoses a note states (external causes, encounters, codes for special purposes). */
const SKIP = /^[VWXY]|^Z0[0-9]|^Z3|^Z4|^Z5|^U0[0-6]|^U[1-9]/;

/**
 * A one-word title or inclusion term that names one condition ("costochondritis", "dandruff",
 * "macromastia"): long enough to be a medical term, not a status or counselling code, not an
 * injury of an unspecified body region ("contusion").
 */
function namesOneCondition(key: string, entry: CodeEntry): boolean {
  return key.length >= 8 && !/^Z|^T14|^R69/.test(entry.code);
}

/**
 * Builds the index. One-word phrases are left out unless they name one condition: they are either in the synonym index or too
 * ambiguous to stand alone ("pain"). Where several codes share a phrase, the broadest (shortest
 * code) wins, so the text's own words choose the billable code below it.
 */
export function buildTitleIndex(table: CodeTable): TitleIndex {
  const byKey = new Map<string, CodeEntry>();
  const add = (phrase: string, entry: CodeEntry): void => {
    // Hyphenated title words are indexed joined and apart ("blood-pressure" and "blood pressure").
    const variants = phrase.includes('-') ? [phrase, phrase.replace(/(\p{L})-(\p{L})/gu, '$1 $2')] : [phrase];
    for (const key of variants.flatMap((v) => phraseKeysOf(v))) {
      const n = key ? key.split(' ').length : 0;
      if (n < 1 || n > MAX_WORDS || (n === 1 && !namesOneCondition(key, entry))) continue;
      const prev = byKey.get(key);
      if (!prev || entry.code.length < prev.code.length) byKey.set(key, entry);
    }
  };
  for (const entry of table.entries()) {
    if (SKIP.test(entry.code)) continue;
    add(entry.title, entry);
    const notes = table.notes(entry.code);
    for (const term of notes?.inclusion ?? []) add(term, entry);
    // Category-level "Includes" name what the whole category covers ("diabetes NOS" under E11).
    if (entry.code.length === 3) for (const term of notes?.includes ?? []) add(term, entry);
  }
  // Longest phrase starting with each word: most words start none, and are passed over at once.
  const longest = new Map<string, number>();
  for (const key of byKey.keys()) {
    const parts = key.split(' ');
    longest.set(parts[0]!, Math.max(longest.get(parts[0]!) ?? 0, parts.length));
  }
  return {
    size: byKey.size,
    find(words) {
      const content = words.map((w, i) => ({ w, i })).filter(({ w }) => !STOP_WORDS.has(w.norm));
      const hits: TitleHit[] = [];
      for (let s = 0; s < content.length; ) {
        let found: TitleHit | undefined;
        for (let n = Math.min(longest.get(content[s]!.w.norm) ?? 0, content.length - s); n >= 1 && !found; n--) {
          const key = content.slice(s, s + n).map(({ w }) => w.norm).join(' ');
          const entry = byKey.get(key);
          if (entry) found = { entry, from: content[s]!.i, to: content[s + n - 1]!.i + 1 };
        }
        if (found) {
          hits.push(found);
          while (s < content.length && content[s]!.i < found.to) s++;
        } else s++;
      }
      return hits;
    },
  };
}
