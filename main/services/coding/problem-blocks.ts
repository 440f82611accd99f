/**
 * A problem-oriented assessment names each problem in a heading ("1. Left knee pain.", "Diabetes
 * type 2.") and qualifies it in the lines under it ("Medical Reasoning: His hemoglobin A1c was
 * elevated at 8", "lumbar spine x-ray"). The encounter understanding of the note (note-facts.ts)
 * finds the problems, their lines, certainty and side; the coder reads the lines for specificity:
 * the site or side the heading leaves out, and the control of a diabetes the plan describes.
 */
import type { Candidate } from './conventions.js';
import type { NoteProblem } from '../encounter/note-facts.js';
import type { NoteSentence } from '../encounter/written-note.js';
import { readRole, type Mention } from './mentions.js';
import { wordsOf } from './words.js';

/** Sites a heading may leave to its lines ("Back pain." over "lumbar spine x-ray unremarkable"). */
const SITE_WORDS: Record<string, string[]> = {
  knee: ['knee'], ankle: ['ankle'], hip: ['hip'], shoulder: ['shoulder'], elbow: ['elbow'], wrist: ['wrist'], hand: ['hand'],
  foot: ['foot'], lumbar: ['lumbar', 'low', 'back'], lumbosacral: ['lumbar', 'low', 'back'], cervical: ['cervical', 'neck'],
  thoracic: ['thoracic'],
};

/** Site words the lines give, when they name exactly one site, and the side the encounter understanding read from them. */
export function linesQualifiers(problem: NoteProblem): string[] {
  const sites = new Set<string>();
  for (const s of problem.lines) for (const w of wordsOf(s.text)) if (SITE_WORDS[w.norm]) sites.add(w.norm);
  const out: string[] = [];
  if (sites.size === 1) out.push(...SITE_WORDS[[...sites][0]!]!);
  if (problem.sideFromLines && (problem.laterality === 'right' || problem.laterality === 'left')) out.push(problem.laterality, 'unilateral');
  return out;
}
/** Glucose or A1c stated above goal: diabetes "with hyperglycemia" (the guideline's reading of poorly controlled). */
const HIGH_GLUCOSE = /\b(?:a1c|glucose|blood sugars?|sugars?)\b[^.;:]{0,50}?\b(?:elevated|high|above (?:goal|target)|uncontrolled|not (?:well )?controlled)\b|\b(?:elevated|high)\s+(?:hemoglobin\s+)?(?:a1c|glucose|blood sugars?|sugars?)\b/i;

/** True when the scope states, as a current finding, that the glucose or A1c is high. */
export function statesHighGlucose(scope: readonly NoteSentence[]): { start: number; end: number } | undefined {
  for (const s of scope) {
    const m = HIGH_GLUCOSE.exec(s.text);
    if (!m) continue;
    const start = s.start + m.index;
    const end = start + m[0].length;
    // Whether the note states it (not "not elevated", not "if the A1c is high") is the encounter understanding's answer, read at the state word.
    const state = /(?:elevated|high|above (?:goal|target)|uncontrolled|not (?:well )?controlled)\b/i.exec(m[0]);
    const at = state ? start + state.index : start;
    if (readRole(s, start, end) === 'current' && readRole(s, at, at + (state?.[0].length ?? 0)) === 'current') return { start, end };
  }
  return undefined;
}

const SITE_OR_SIDE = /^(knee|ankle|hip|shoulder|elbow|wrist|hand|foot|lumbar|low|back|cervical|neck|thoracic|right|left|bilateral)$/;

/**
 * A problem heading that leaves out the site or the side ("Back pain.", "Osteoarthritis.") takes
 * them from the lines under it when those name exactly one ("lumbar spine x-ray", "the knee").
 */
export function qualifyFromLines(problems: readonly NoteProblem[], mentions: Mention[]): void {
  for (const problem of problems) {
    const heading = problem.heading;
    if (!problem.lines.length) continue;
    const extra = linesQualifiers(problem);
    if (!extra.length) continue;
    for (const m of mentions) {
      if (m.sentence !== heading) continue;
      const has = (re: RegExp): boolean => [...m.context.positive.keys()].some((w) => re.test(w));
      const sides = has(/^(right|left|bilateral)$/);
      const sites = has(SITE_OR_SIDE) && [...m.context.positive.keys()].some((w) => SITE_OR_SIDE.test(w) && !/^(right|left|bilateral)$/.test(w));
      // "Back" alone is a region its lines may narrow to a spinal level ("Back pain." over "lumbar spine x-ray").
      const backOnly = sites && !has(/^(knee|ankle|hip|shoulder|elbow|wrist|hand|foot|lumbar|low|cervical|neck|thoracic)$/);
      const spinal = extra.includes('lumbar') || extra.includes('thoracic');
      for (const w of extra) {
        const isSide = /^(right|left|unilateral)$/.test(w);
        if ((isSide && sides) || (!isSide && sites && !(backOnly && spinal)) || m.context.absent.has(w) || m.context.positive.has(w)) continue;
        m.context.positive.set(w, 0.6);
        (m.fromLines ??= []).push(w);
      }
    }
  }
}

/**
 * Outpatient rule: a diagnosis the encounter understanding holds unconfirmed (its own lines order
 * tests to confirm it) is not coded; its findings are. Returns the heading mentions so set aside.
 */
export function unconfirmedHeadings(problems: readonly NoteProblem[], mentions: readonly Mention[]): Set<Mention> {
  const out = new Set<Mention>();
  for (const p of problems) {
    if (p.certainty === 'confirmed') continue;
    for (const m of mentions) if (m.sentence === p.heading && m.role === 'current' && m.concept?.kind !== 'symptom') out.add(m);
  }
  return out;
}

/** A past or family condition the assessment relies on: a reason for a decision, screening, surveillance or risk. */
const RELIED_ON = /\b(?:given|because\s+of|due\s+to|in\s+light\s+of|considering|since|screen(?:ing)?|surveillance|risk|status\s+post|s\/p)\b/i;

/**
 * Outpatient rule: history and family-history codes (Z80-Z87) only where they bear on the visit:
 * named as a problem or on a line of its own, said as the reason for a decision ("because of his
 * smoking history"), or discussed under a current problem. A history recited in passing is not coded.
 */
export function dropUnreliedHistory(scope: readonly NoteSentence[], problems: readonly NoteProblem[], candidates: Map<string, Candidate>): void {
  const underProblems = new Set(problems.flatMap((p) => p.lines));
  const headings = new Set(problems.map((p) => p.heading));
  const sentenceAt = (at: number): NoteSentence | undefined => scope.find((s) => s.start <= at && at < s.end);
  for (const [code, c] of [...candidates]) {
    if ((c.role !== 'history' && c.role !== 'family') || c.headline) continue;
    const sentences = c.spans.map((x) => sentenceAt(x.start)).filter((s): s is NoteSentence => !!s);
    if (sentences.some((s) => underProblems.has(s) || headings.has(s) || RELIED_ON.test(s.text))) continue;
    candidates.delete(code);
  }
}
