import { contextOf, type FindingContext } from '../../services/clinical-language/context.js';
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
 * Builds one alternation over all aliases (longest first). Short aliases (three letters or
 * fewer) must be written in capitals ("MI", "PE") so everyday words are not read as diagnoses.
 */
export function createTermMatcher(groups: string[][]): TermMatcher {
  const canonical = new Map<string, string>();
  for (const group of groups) for (const alias of group) if (!canonical.has(alias)) canonical.set(alias, group[0] as string);
  const alternation = [...canonical.keys()]
    .sort((a, b) => b.length - a.length)
    .map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s-]+'))
    .join('|');
  const re = new RegExp(`(?<![\\w-])(${alternation})(?![\\w-])`, 'gi');
  return {
    find(text: string, sections: Section[]): Mention[] {
      const out: Mention[] = [];
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const surface = m[1] as string;
        const key = surface.toLowerCase().replace(/[\s-]+/g, ' ');
        const name = canonical.get(key) ?? canonical.get(surface.toLowerCase());
        if (name === undefined) continue;
        if (surface.replace(/[^a-z]/gi, '').length <= 3 && surface !== surface.toUpperCase()) continue;
        if (surface.length <= 3 && text[m.index + surface.length] === ':') continue;
        const start = m.index;
        const end = start + surface.length;
        const section = sections.find((s) => start >= s.start && start < s.end)?.name;
        const context = contextOf(text, start, end);
        out.push({ surface, canonical: name, start, end, negated: context.negated, context, section });
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
