/**
 * The coder's vocabulary: the synonym and abbreviation index (`resources/codes/synonyms.json`,
 * read by the engine and handed in), compiled against one code table.
 */
import type { CodeEntry, CodeTable } from './ports.js';
import { normWord, wordsOf } from './words.js';

/** One clinical concept: the words that name it and where it sits in the table. */
export interface LexiconConcept {
  id: string;
  /** Anchor codes (a category or a billable code); `A|B` takes the first the table has. */
  codes: string[];
  terms: string[];
  kind?: 'disease' | 'symptom' | 'status' | 'injury';
  /** Words added to the mention when choosing the billable code below the anchor. */
  adds?: string[];
  /** Code for "history of ...": a code, `current` (a chronic condition the patient still has) or `none`. */
  history?: string;
  /** Code for "family history of ...". */
  family?: string;
  /** Concepts of one group merge: a generic mention ("diabetes") takes the specific one's code ("type 1"). */
  group?: string;
  generic?: boolean;
  /** The table's "with" convention links it to other conditions of the note (diabetes, COPD). */
  combines?: boolean;
  /** Cue words: a weak term counts only when one of them is in its sentence. */
  weak?: string[];
  /** False: coded only as history or family history ("cancer" alone names no site). */
  current?: boolean;
  /** Coded (its own anchor) only when its sentence says it is done at this visit: a vaccine given today is Z23. */
  atVisit?: boolean;
}

/** The JSON document of the index. */
export interface CodingLexicon {
  concepts: LexiconConcept[];
  /** Phrases that add words to a mention's context ("poorly controlled" -> hyperglycemia). */
  qualifiers: { terms: string[]; adds: string[] }[];
  /** Words that imply others ("left" -> unilateral, "leg" -> lower limb). */
  implies: Record<string, string[]>;
  /** Title words a code may carry without the text saying them ("primary", "initial encounter"). */
  softWords: string[];
  /** Symptom code prefix -> code prefixes of diagnoses that explain it. */
  explains: Record<string, string[]>;
  /** Combination codes the table's conventions require when conditions occur together. */
  combinations: { all: string[]; replace: string; by: string; why: string }[];
  /** Short terms that match only in capitals ("MI", "PE", "OA"). */
  capitalsOnly: string[];
  /** Codes dropped beside others ("Z79.4" with type 1 diabetes); prefixes, `|` for alternatives. */
  exclusions?: { drop: string; when: string; unless?: string; why: string }[];
  /** Code prefixes the guidelines allow only as the first-listed diagnosis (Z00 general examination ...). */
  firstListed?: string[];
}

/** A concept with its anchors resolved against the loaded edition. */
export interface ResolvedConcept extends LexiconConcept {
  anchors: CodeEntry[];
  /** Normalised words the concept contributes (its terms' first wording plus `adds`). */
  words: string[];
}

export interface CompiledLexicon {
  concepts: Map<string, ResolvedConcept>;
  conceptMatcher: TermMatcher<string>;
  qualifierMatcher: TermMatcher<string[]>;
  implies: Map<string, string[]>;
  softWords: Set<string>;
  explains: [string, string[]][];
  combinations: CodingLexicon['combinations'];
  exclusions: NonNullable<CodingLexicon['exclusions']>;
  firstListed: string[];
  /** Problems found while compiling (anchors missing from this edition): reported, never fatal. */
  warnings: string[];
}

/** Resolves `A|B` to the first code the table has. */
export function resolveCode(table: CodeTable, spec: string): CodeEntry | undefined {
  for (const option of spec.split('|')) {
    const entry = table.get(option.trim());
    if (entry) return entry;
  }
  return undefined;
}

/** Compiles the index against a table; anchors the edition lacks are dropped with a warning. */
export function compileLexicon(lexicon: CodingLexicon, table: CodeTable): CompiledLexicon {
  const warnings: string[] = [];
  const concepts = new Map<string, ResolvedConcept>();
  for (const concept of lexicon.concepts) {
    const anchors = concept.codes.map((spec) => resolveCode(table, spec)).filter((e): e is CodeEntry => !!e);
    if (!anchors.length) {
      warnings.push(`concept ${concept.id}: none of ${concept.codes.join(', ')} is in ${table.edition}`);
      continue;
    }
    const words = [...new Set([...wordsOf(concept.terms[0] ?? '').map((w) => w.norm), ...(concept.adds ?? []).map((w) => normWord(w))])];
    concepts.set(concept.id, { ...concept, anchors, words });
  }
  const caps = new Set(lexicon.capitalsOnly.map((t) => t.toLowerCase()));
  return {
    concepts,
    // Abbreviations that are everyday words in lower case ("pe", "oa", "cad") count only in capitals.
    conceptMatcher: createTermMatcher([...concepts.values()].map((c) => ({ value: c.id, phrases: c.terms })), caps),
    qualifierMatcher: createTermMatcher(lexicon.qualifiers.map((q) => ({ value: q.adds.map((w) => normWord(w)), phrases: q.terms })), new Set()),
    implies: new Map(Object.entries(lexicon.implies).map(([k, v]) => [normWord(k), v.map((w) => normWord(w))])),
    softWords: new Set(lexicon.softWords.map((w) => normWord(w))),
    explains: Object.entries(lexicon.explains),
    combinations: lexicon.combinations,
    exclusions: lexicon.exclusions ?? [],
    firstListed: (lexicon.firstListed ?? []).map((c) => c.replace('.', '')).map((c) => (c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c)),
    warnings,
  };
}

/** A term found in a text; offsets are UTF-16 positions in the text searched. */
export interface TermHit<T> {
  value: T;
  start: number;
  end: number;
}

export interface TermMatcher<T> {
  find(text: string): TermHit<T>[];
}

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
const termTokens = (phrase: string): string[] => phrase.toLowerCase().replace(/’/g, "'").split(/[^\p{L}\p{N}']+/u).filter(Boolean);

/**
 * Whole-word matching of many terms in one pass over the words (a regular expression of a
 * thousand alternatives is tried at every character; this looks up each word once). Words of a
 * term may be joined by spaces, hyphens or a slash ("a-fib", "N/V"); the longest term wins at a
 * position and matches do not overlap. A one-word term also matches its plural ("UTIs"). Terms in
 * `capitalsOnly` match only when written in capitals.
 */
export function createTermMatcher<T>(entries: readonly { value: T; phrases: readonly string[] }[], capitalsOnly: ReadonlySet<string>): TermMatcher<T> {
  const byFirst = new Map<string, { tokens: string[]; value: T; caps: boolean }[]>();
  for (const entry of entries) {
    for (const phrase of entry.phrases) {
      const tokens = termTokens(phrase);
      if (!tokens.length) continue;
      const list = byFirst.get(tokens[0]!) ?? [];
      if (list.some((t) => t.tokens.join(' ') === tokens.join(' '))) continue;
      list.push({ tokens, value: entry.value, caps: capitalsOnly.has(phrase.toLowerCase()) });
      byFirst.set(tokens[0]!, list.sort((a, b) => b.tokens.length - a.tokens.length));
    }
  }
  return {
    find(text) {
      const words = [...text.matchAll(TOKEN)].map((m) => ({ w: m[0].toLowerCase().replace(/’/g, "'"), start: m.index, end: m.index + m[0].length }));
      const out: TermHit<T>[] = [];
      for (let i = 0; i < words.length; ) {
        let hit: { n: number; value: T } | undefined;
        const w0 = words[i]!.w;
        const singular = w0.length > 3 && w0.endsWith('s') ? (w0.endsWith('es') && byFirst.has(w0.slice(0, -2)) ? w0.slice(0, -2) : w0.slice(0, -1)) : w0;
        const options = byFirst.get(w0) ?? (singular !== w0 ? (byFirst.get(singular) ?? []).filter((t) => t.tokens.length === 1) : []);
        for (const t of options) {
          if (i + t.tokens.length > words.length) continue;
          let ok = true;
          for (let k = 1; k < t.tokens.length && ok; k++) {
            ok = words[i + k]!.w === t.tokens[k] && /^[\s/-]+$/.test(text.slice(words[i + k - 1]!.end, words[i + k]!.start));
          }
          if (ok && t.caps) {
            const surface = text.slice(words[i]!.start, words[i + t.tokens.length - 1]!.end).replace(/s$/, '');
            ok = surface === surface.toUpperCase();
          }
          if (ok) {
            hit = { n: t.tokens.length, value: t.value };
            break;
          }
        }
        if (hit) {
          out.push({ value: hit.value, start: words[i]!.start, end: words[i + hit.n - 1]!.end });
          i += hit.n;
        } else i++;
      }
      return out;
    },
  };
}
