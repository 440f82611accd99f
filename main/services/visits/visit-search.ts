import type { VisitContent } from './ports.js';

/**
 * Matching for visit search: case and accents do not matter ("José" is found by "jose"), and
 * every word of the query must appear in the patient's name, the dictation or the transcript;
 * a date of birth asked for must be the patient's.
 */

const fold = (s: string): string => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The query's words, folded; empty when it has none. */
export function queryWords(q: string): string[] {
  return fold(q).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when every word occurs in the visit's searchable text. */
export function matchesQuery(content: VisitContent, words: readonly string[]): boolean {
  const haystack = fold(`${content.patient.name ?? ''}\n${content.dictation.text}\n${content.transcript}`);
  return words.every((w) => haystack.includes(w));
}

/** What a search asks for: words, and the patient's date of birth (exact, YYYY-MM-DD). */
export interface VisitFilter {
  words: readonly string[];
  dateOfBirth?: string;
}

/**
 * True when the visit matches every part of the filter. A date of birth is compared whole, not
 * as words: "1956-03-04" must not find a patient born 1956-04-03 or a dictation that says "1956".
 */
export function matchesFilter(content: VisitContent, filter: VisitFilter): boolean {
  if (filter.dateOfBirth && content.patient.dateOfBirth !== filter.dateOfBirth) return false;
  return filter.words.length === 0 || matchesQuery(content, filter.words);
}

/** The first words of the visit, for a list: the dictation, else the transcript. */
export function preview(content: VisitContent, max = 140): string {
  const text = (content.dictation.text.trim() || content.transcript.trim()).replace(/\s+/g, ' ');
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
