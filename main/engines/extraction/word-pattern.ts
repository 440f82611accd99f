import { RE2JS } from 're2js';

/**
 * Patterns the field reader builds from a caller's property names and descriptions. They run on
 * RE2 (the `re2js` port: time linear in the text whatever the pattern), never on V8's backtracking
 * engine: "a_a_a_a_a_a_a" as a name made a pattern of overlapping gaps that took 9.5 s on a text of
 * repeated "a " and froze the process (issue 29). A name of more words than a clinician would write
 * is not looked for at all, since each word adds states to every step of the scan.
 */
const MAX_WORDS = 6;
const MAX_CHARS = 80;

/** Whether a field's words are few and short enough to be looked for in the text. */
export function fitsPattern(words: string): boolean {
  return words.length <= MAX_CHARS && words.split(' ').filter(Boolean).length <= MAX_WORDS;
}

/**
 * Whether every word of `words` (a letter run and a digit run counted apart: "phq9" is looked for
 * as "phq" and "9") occurs in `text`. RE2's scan costs microseconds a character, so a field whose
 * words the text lacks (most fields of a large schema) is not scanned at all.
 */
export function mayMention(words: string, text: string): boolean {
  const lower = text.toLowerCase();
  return words.toLowerCase().split(/\s+|(?<=[a-z])(?=\d)/).every((piece) => lower.includes(piece));
}

/** Compiled patterns by source: one schema's fields are read again for each request. */
const compiled = new Map<string, RE2JS>();

/** The first case-blind match of an RE2 `pattern` in `text`: its code-unit span and first group. */
export function firstMatch(pattern: string, text: string): { start: number; end: number; group1: string | undefined } | undefined {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    if (compiled.size >= 512) compiled.clear();
    compiled.set(pattern, re);
  }
  const m = re.matcher(text);
  if (!m.find()) return undefined;
  return { start: m.start(), end: m.end(), group1: m.groupCount() >= 1 ? (m.group(1) ?? undefined) : undefined };
}
