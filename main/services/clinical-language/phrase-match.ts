/**
 * Whole-word phrase matching over clinical text: one alternation per phrase list, longest
 * phrase first, spaces in a phrase matching any whitespace or a hyphen ("chest pain",
 * "chest-pain"). Used for lexicons (symptoms, drugs) and for the context trigger lists.
 */

/** A lexicon entry: the value reported for a match, and every phrase that names it. */
export interface PhraseEntry<T> {
  value: T;
  phrases: readonly string[];
}

/** One phrase found in a text. Offsets are UTF-16 positions into the text searched. */
export interface PhraseHit<T> {
  value: T;
  /** The words as written. */
  surface: string;
  /** The phrase of the entry that matched, as listed. */
  phrase: string;
  start: number;
  end: number;
}

/** Finds the phrases of one list in a text. */
export interface PhraseMatcher<T> {
  find(text: string): PhraseHit<T>[];
}

/** Options for {@link createPhraseMatcher}. */
export interface PhraseMatcherOptions {
  /**
   * Phrases with at most this many letters must be written in capitals to match ("MI", "PE",
   * "AF"), so everyday words ("pe", "af", "ra") are not read as diagnoses. 0 (default) = off.
   */
  capitalsUpTo?: number;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Lower-cases a phrase and treats hyphens as spaces, so lookups ignore how it was joined. */
export function phraseKey(text: string): string {
  // "do n't" (a tokenised transcript, some recognisers) is "don't".
  return text.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+n't\b/g, "n't").replace(/[\s-]+/g, ' ').trim();
}

/**
 * Regular-expression source for one phrase: escaped, flexible between words, and anchored to
 * word edges only where the phrase starts or ends with a letter or digit (so "?" and "r/o" work).
 */
export function phrasePattern(phrase: string): string {
  const key = phraseKey(phrase);
  const body = key
    .split(' ')
    .map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/n't$/, "\\s?n't").replace(/'/g, "['’]"))
    .join('[\\s-]+');
  const lead = WORD_CHAR.test(key[0] ?? '') ? '(?<![\\p{L}\\p{N}])' : '';
  const tail = WORD_CHAR.test(key[key.length - 1] ?? '') ? '(?![\\p{L}\\p{N}])' : '';
  return `${lead}${body}${tail}`;
}

/** One case-insensitive alternation over phrases, longest first so the longest wins at a position. */
export function alternation(phrases: Iterable<string>): RegExp {
  const unique = [...new Set([...phrases].map(phraseKey))].filter(Boolean).sort((a, b) => b.length - a.length);
  if (unique.length === 0) return /(?!)/gu;
  return new RegExp(unique.map(phrasePattern).join('|'), 'giu');
}

/**
 * Builds a matcher for a phrase list. Matches never overlap: scanning left to right, the
 * longest phrase at each position wins ("type 2 diabetes" before "diabetes").
 */
export function createPhraseMatcher<T>(entries: readonly PhraseEntry<T>[], options: PhraseMatcherOptions = {}): PhraseMatcher<T> {
  const byKey = new Map<string, { value: T; phrase: string }>();
  for (const entry of entries) for (const phrase of entry.phrases) if (!byKey.has(phraseKey(phrase))) byKey.set(phraseKey(phrase), { value: entry.value, phrase });
  // Built at the first search, not here: the lexicons' matchers are made when their modules load,
  // and building their expressions then took a large part of every start.
  let re: RegExp | undefined;
  const capitalsUpTo = options.capitalsUpTo ?? 0;
  return {
    find(text: string): PhraseHit<T>[] {
      const out: PhraseHit<T>[] = [];
      re ??= alternation(byKey.keys());
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const surface = m[0];
        const found = byKey.get(phraseKey(surface));
        if (!found) continue;
        if (capitalsUpTo > 0 && surface.replace(/[^\p{L}]/gu, '').length <= capitalsUpTo && surface !== surface.toUpperCase()) continue;
        out.push({ value: found.value, surface, phrase: found.phrase, start: m.index, end: m.index + surface.length });
      }
      return out;
    },
  };
}
