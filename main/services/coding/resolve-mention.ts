/**
 * The codes one mention yields: a relative's condition to a family-history code, a past one to a
 * personal-history code, an intervention given at this visit to its status code, a current one
 * to the most specific billable code its words support (both sides where the table has no
 * bilateral code). What the mention is (current, past, a relative's) the encounter understanding
 * decided before; this module only names it in the table.
 */
import { givenAtVisit } from '../encounter/assertion.js';
import { resolveCode } from './lexicon.js';
import type { Candidate } from './conventions.js';
import type { Mention } from './mentions.js';
import type { CodeEntry, CodeTable } from './ports.js';
import { candidatesUnder, chooseBothSides, chooseCode, chooseCombined, scoreCode, type CodeChoice, type MentionContext } from './specificity.js';
import type { ParsedTitle } from './words.js';

/** Confidence a mention earns by how it was found. */
export const BASE = { synonym: 0.9, title: 0.82, weak: 0.62 } as const;
const HISTORY_ROOTS = ['Z85', 'Z86', 'Z87'];
const FAMILY_ROOTS = ['Z80', 'Z81', 'Z82', 'Z83', 'Z84'];

/** What resolving needs of the coder: its table, parsed titles and the history pools. */
export interface Resolver {
  table: CodeTable;
  titleOf: (e: CodeEntry) => ParsedTitle;
  historyPool: CodeEntry[];
  familyPool: CodeEntry[];
  parentKey: (e: CodeEntry) => string;
}

export interface Resolved {
  entry: CodeEntry;
  score: number;
  role: Candidate['role'];
  why: string[];
  how: string;
}

export function createResolver(table: CodeTable, titleOf: (e: CodeEntry) => ParsedTitle): Resolver {
  return {
    table, titleOf,
    historyPool: HISTORY_ROOTS.flatMap((r) => table.billableUnder(r)),
    familyPool: FAMILY_ROOTS.flatMap((r) => table.billableUnder(r)),
    parentKey: (e) => table.parent(e.code)?.code ?? e.code,
  };
}

/** A "personal history of" / "family history of" code whose title names the mention's words. */
function searchPool(r: Resolver, pool: CodeEntry[], m: Mention, lead: string[]): CodeChoice | undefined {
  const positive = new Map<string, number>(lead.map((w) => [w, 1]));
  for (const w of m.words) positive.set(w, 1);
  const ctx: MentionContext = { positive, absent: new Set() };
  let best: CodeChoice | undefined;
  for (const e of pool) {
    const c = scoreCode(e, r.titleOf(e), ctx);
    if (c.supported && c.matched.length > lead.length && (!best || c.score > best.score)) best = c;
  }
  return best;
}

/** How the words led to the code, for the suggestion's rule. */
function explain(m: Mention): { found: string; how: (choice?: CodeChoice) => string } {
  const said = `"${m.sentence.text.slice(m.start - m.sentence.start, m.end - m.sentence.start)}"`;
  const found = m.source === 'title' ? `${said} is the table's own wording` : `${said} is a term of the synonym index`;
  const lines = (choice: CodeChoice): string => {
    const taken = choice.matched.filter((w) => m.fromLines?.includes(w) && !m.words.includes(w));
    return taken.length ? ` ("${taken.join(' ')}" from the lines under its heading)` : '';
  };
  const how = (choice?: CodeChoice): string =>
    !choice ? found : choice.supported ? `${found}; the most specific code whose every title word the text supports${lines(choice)}` : `${found}; unspecified: the text says no more`;
  return { found, how };
}

/** A relative's or a past condition: its family- or personal-history code, if the table has one. */
function resolveHistory(r: Resolver, m: Mention, base: number, found: string): Resolved[] | undefined {
  const c = m.concept;
  if (m.role === 'family') {
    const code = c?.family ? resolveCode(r.table, c.family) : searchPool(r, r.familyPool, m, ['family', 'history'])?.entry;
    return code ? [{ entry: code, score: base * 0.95 * (c?.family ? 1 : 0.8), role: 'family', why: ['family history'], how: found }] : [];
  }
  if (m.role === 'history' && c?.history !== 'current' && !(m.titleEntry && /^Z8[5-7]|^Z9/.test(m.titleEntry.code))) {
    if (c?.history === 'none') return [];
    const code = c?.history ? resolveCode(r.table, c.history) : searchPool(r, r.historyPool, m, ['personal', 'history'])?.entry;
    return code ? [{ entry: code, score: base * 0.95 * (c?.history ? 1 : 0.8), role: roleOfCode(code.code, 'history'), why: ['personal history'], how: found }] : [];
  }
  return undefined;
}

/** The codes one mention yields, with the confidence its evidence earns. */
export function resolveMention(r: Resolver, m: Mention, globalWords: Map<string, number>): Resolved[] {
  const c = m.concept;
  const { found, how } = explain(m);
  const base = BASE[m.source];
  const sectionFactor = m.sentence.section === 'assessment' || m.sentence.section === 'plan' || m.sentence.section === 'none' ? 1 : 0.88;
  const past = resolveHistory(r, m, base, found);
  if (past) return past;
  if (c?.current === false) {
    const entry = c.atVisit && givenAtVisit(m.sentence.text) ? c.anchors.find((a) => a.billable) : undefined;
    return entry ? [{ entry, score: base * sectionFactor, role: roleOfCode(entry.code, 'status'), why: [], how: `${found}; given at this visit` }] : [];
  }
  const anchors = c ? (m.titleEntry ? [...c.anchors, m.titleEntry] : c.anchors) : [m.titleEntry!];
  const role = roleOfCode(anchors[0]!.code, c?.kind === 'status' ? 'status' : 'current');
  if (anchors.length === 1 && anchors[0]!.billable) return [{ entry: anchors[0]!, score: base * sectionFactor, role, why: [], how: found }];
  const candidates = candidatesUnder(r.table, anchors);
  if (c?.combines) {
    const ctx: MentionContext = { positive: new Map(m.context.positive), absent: m.context.absent };
    for (const [w, weight] of globalWords) if (!ctx.positive.has(w) && !ctx.absent.has(w)) ctx.positive.set(w, weight);
    return chooseCombined(candidates, ctx, r.titleOf, new Set(c.words), r.parentKey).map((choice) => ({
      entry: choice.entry, score: base * sectionFactor * (choice.supported ? 1 : 0.72), role, why: [], how: how(choice),
    }));
  }
  const sides = chooseBothSides(candidates, m.context, r.titleOf);
  if (sides) return sides.map((choice) => ({ entry: choice.entry, score: base * sectionFactor * 0.95, role, why: ['bilateral: no bilateral code, both sides coded'], how: found }));
  const choice = chooseCode(candidates, m.context, r.titleOf);
  return choice ? [{ entry: choice.entry, score: base * sectionFactor * (choice.supported ? 1 : 0.72), role, why: [], how: how(choice) }] : [];
}

/** The role a code's chapter gives it: Z80-Z84 family, Z85-Z87 (and old MI) history, Z79/Z99/Z68/Z23 status. */
export function roleOfCode(code: string, fallback: Candidate['role']): Candidate['role'] {
  if (/^Z8[0-4]/.test(code)) return 'family';
  if (/^Z8[5-7]|^I25\.2$/.test(code)) return 'history';
  if (/^Z(79|99|68|23|72|91)/.test(code)) return 'status';
  return fallback;
}
