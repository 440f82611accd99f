/**
 * Encounter codes that name the visit itself (a general medical examination, aftercare): the
 * guideline lists them as first-listed only (ICD-10-CM guidelines I.C.21.c.16), and a routine
 * examination is coded "with abnormal findings" when the visit found something to act on
 * (I.C.21.c.13: the findings are coded beside it).
 */
import type { Candidate } from './conventions.js';
import { assertInNote } from '../encounter/note-facts.js';
import type { NoteSentence } from '../encounter/written-note.js';
import type { CodeEntry, CodeTable } from './ports.js';
import type { ParsedTitle } from './words.js';

/** True when a code falls under one of the first-listed-only prefixes of the index data. */
export const isFirstListed = (code: string, prefixes: readonly string[]): boolean => prefixes.some((p) => code.startsWith(p));

/**
 * What an assessment says when the examination found something: a test ordered to evaluate a
 * finding, a result that demonstrates one, a condition out of control or worsening, a referral
 * for a procedure. A stable chronic condition continued as before is no finding of this visit.
 */
const FINDING = /\b(?:to\s+(?:further\s+)?(?:evaluate|investigate|work\s*up|assess)\s+(?:his|her|their|the|this|these|that)\b|demonstrat(?:ed|es|ing)|reveal(?:ed|s|ing)|show(?:ed|s)|positive\s+for|abnormal(?:ity|ities)?|elevated|uncontrolled|not\s+(?:well\s+)?controlled|worsening|experiencing|refer(?:red|ral)?\b[^.;]{0,50}?\bfor\s+(?:an?\s+)?(?:\w+\s+)?(?:ablation|surgery|biopsy|procedure|repair|replacement|evaluation))\b/i;
/** A result the finding verb reports as normal ("showed normal", "revealed unremarkable", "was negative"). */
const NORMAL_AFTER = /^\W*(?:(?:a|an|the|some)\s+)?(?:normal|unremarkable|negative|nothing|stable)\b/i;
/** What the finding verb names ("revealed no fracture" -> "fracture"): the encounter understanding says whether the note negates it. */
const OBJECT = /^\W*(?:(?:a|an|the|some|any|no|not)\s+)*([\p{L}-]+)/iu;
/** Counselling and agreement bullets talk about what may happen, not what was found. */
const DISCUSSION = /^\W*(?:patient\s+)?(?:education(?:\s+and\s+counse(?:l)?ling)?|counse(?:l)?ling|patient\s+agreements?|instructions?)\s*:/i;

/** The span of the first statement of the scope that records an abnormal finding, or undefined. */
export function findsAbnormal(scope: readonly NoteSentence[]): { start: number; end: number } | undefined {
  for (const s of scope) {
    if (DISCUSSION.test(s.text)) continue;
    const negated = (from: number, to: number): boolean => /^(?:denied|ruled-out)$/.test(assertInNote(s, s.start + from, s.start + to).status);
    for (const m of s.text.matchAll(new RegExp(FINDING.source, 'gi'))) {
      const at = m.index + m[0].length;
      const after = s.text.slice(at, at + 30);
      const object = OBJECT.exec(after);
      const objectAt = object ? at + object[0].length - object[1]!.length : at;
      if (NORMAL_AFTER.test(after) || negated(m.index, at) || (object && negated(objectAt, objectAt + object[1]!.length))) continue;
      return { start: s.start + m.index, end: s.start + m.index + m[0].length };
    }
  }
  return undefined;
}

const hasWords = (t: ParsedTitle, mode: 'required' | 'absent'): boolean =>
  t.items.some((i) => i.mode === mode && i.word === 'abnormal') && t.items.some((i) => i.mode === mode && i.word === 'finding');

/**
 * An examination code "without abnormal findings" becomes its sibling "with abnormal findings"
 * (Z00.00 -> Z00.01, Z00.129 -> Z00.121) when the assessment records a finding.
 */
export function withAbnormalFindings(table: CodeTable, titleOf: (e: CodeEntry) => ParsedTitle, scope: readonly NoteSentence[], candidates: Map<string, Candidate>): void {
  for (const [code, c] of [...candidates]) {
    if (!hasWords(titleOf(c.entry), 'absent')) continue;
    const finding = findsAbnormal(scope);
    if (!finding) return;
    const parent = table.parent(code);
    const sibling = parent && table.billableUnder(parent.code).find((e) => e.code !== code && hasWords(titleOf(e), 'required'));
    if (!sibling || candidates.has(sibling.code)) continue;
    candidates.delete(code);
    candidates.set(sibling.code, { ...c, entry: sibling, spans: [...c.spans, finding], why: [...c.why, 'examination with abnormal findings: the assessment records a finding to act on'] });
  }
}
