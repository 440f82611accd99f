import { contextOf, type FindingContext } from '../../services/clinical-language/context.js';
import { createPhraseMatcher } from '../../services/clinical-language/phrase-match.js';
import type { Section } from './text-analysis.js';

/** One mention of a lexicon term in the text. */
export interface Mention {
  /** The words as written. */
  surface: string;
  /** Canonical lexicon name. */
  canonical: string;
  start: number;
  end: number;
  negated: boolean;
  /** Negation, uncertainty, history and whose finding it is, as the sentence says. */
  context: FindingContext;
  /** Canonical section the mention sits in, when it sits in one. */
  section?: string;
}

export interface TermMatcher {
  find(text: string, sections: Section[]): Mention[];
}

/**
 * A matcher over lexicon groups (canonical name first, then aliases), built on the shared
 * phrase matcher: longest alias first, and aliases of three letters or fewer only in capitals
 * ("MI", "PE") so everyday words are not read as diagnoses.
 */
export function createTermMatcher(groups: string[][]): TermMatcher {
  const matcher = createPhraseMatcher(groups.map((g) => ({ value: g[0] as string, phrases: g })), { capitalsUpTo: 3 });
  return {
    find(text: string, sections: Section[]): Mention[] {
      const out: Mention[] = [];
      for (const hit of matcher.find(text)) {
        const { start, end } = hit;
        // A hyphen joins words: "non-tender" does not mention "tender".
        if (text[start - 1] === '-' || text[end] === '-') continue;
        // "PE:" or "CC:" is a section header, not a finding.
        if (hit.surface.length <= 3 && text[end] === ':') continue;
        const section = sections.find((s) => start >= s.start && start < s.end)?.name;
        const context = contextOf(text, start, end);
        out.push({ surface: hit.surface, canonical: hit.value, start, end, negated: context.negated, context, section });
      }
      return out;
    },
  };
}

/** Output form of a mention: the canonical name for abbreviations, else the words as written. */
export function displayName(m: Mention): string {
  const letters = m.surface.replace(/[^a-z]/gi, '');
  if (letters.length <= 5 && m.surface === m.surface.toUpperCase()) return m.canonical;
  return m.surface.replace(/\s+/g, ' ');
}
