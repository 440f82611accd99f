/**
 * The coder's vocabulary: the synonym and abbreviation index (`resources/codes/synonyms.json`,
 * read by the engine and handed in), compiled against one code table.
 */
import { createPhraseMatcher, type PhraseMatcher } from '../clinical-language/phrase-match.js';
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
}

/** A concept with its anchors resolved against the loaded edition. */
export interface ResolvedConcept extends LexiconConcept {
  anchors: CodeEntry[];
  /** Normalised words the concept contributes (its terms' first wording plus `adds`). */
  words: string[];
}

export interface CompiledLexicon {
  concepts: Map<string, ResolvedConcept>;
  conceptMatcher: { find(text: string): { value: string; start: number; end: number; surface: string }[] };
  qualifierMatcher: PhraseMatcher<string[]>;
  implies: Map<string, string[]>;
  softWords: Set<string>;
  explains: [string, string[]][];
  combinations: CodingLexicon['combinations'];
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
  const entries = (keep: (term: string) => boolean) =>
    [...concepts.values()].map((c) => ({ value: c.id, phrases: c.terms.filter((t) => keep(t.toLowerCase())) })).filter((e) => e.phrases.length);
  const plain = createPhraseMatcher(entries((t) => !caps.has(t)));
  // Abbreviations that are everyday words in lower case ("pe", "oa", "cad") count only in capitals.
  const capitals = createPhraseMatcher(entries((t) => caps.has(t)), { capitalsUpTo: 99 });
  return {
    concepts,
    conceptMatcher: {
      find(text) {
        const hits = [...plain.find(text), ...capitals.find(text)].sort((a, b) => a.start - b.start || b.end - a.end);
        // Longest first at a position; overlapping shorter hits give way.
        const out: typeof hits = [];
        for (const h of hits) {
          const prev = out[out.length - 1];
          if (prev && h.start < prev.end) {
            if (h.end - h.start > prev.end - prev.start) out[out.length - 1] = h;
            continue;
          }
          out.push(h);
        }
        return out;
      },
    },
    qualifierMatcher: createPhraseMatcher(lexicon.qualifiers.map((q) => ({ value: q.adds.map((w) => normWord(w)), phrases: q.terms }))),
    implies: new Map(Object.entries(lexicon.implies).map(([k, v]) => [normWord(k), v.map((w) => normWord(w))])),
    softWords: new Set(lexicon.softWords.map((w) => normWord(w))),
    explains: Object.entries(lexicon.explains),
    combinations: lexicon.combinations,
    warnings,
  };
}
