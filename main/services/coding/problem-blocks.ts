/**
 * A problem-oriented assessment names each problem in a heading ("1. Left knee pain.", "Diabetes
 * type 2.") and qualifies it in the lines under it ("Medical Reasoning: His hemoglobin A1c was
 * elevated at 8", "lumbar spine x-ray"). A coder reads the heading as the problem and the lines for
 * specificity: the site or side the heading leaves out, and the control of a diabetes the plan
 * describes. This module finds the headings, their lines, and those qualifiers.
 */
import type { Candidate } from './conventions.js';
import type { NoteSentence } from './document.js';
import { readRole, type Mention } from './mentions.js';
import { wordsOf } from './words.js';

/** Sites a heading may leave to its lines ("Back pain." over "lumbar spine x-ray unremarkable"). */
const SITE_WORDS: Record<string, string[]> = {
  knee: ['knee'], ankle: ['ankle'], hip: ['hip'], shoulder: ['shoulder'], elbow: ['elbow'], wrist: ['wrist'], hand: ['hand'],
  foot: ['foot'], lumbar: ['lumbar', 'low', 'back'], lumbosacral: ['lumbar', 'low', 'back'], cervical: ['cervical', 'neck'],
  thoracic: ['thoracic'],
};
const MAX_HEADING_WORDS = 9;

/** True when a sentence opens a line and is short enough to be a problem's heading. */
export function isProblemHeading(text: string, s: NoteSentence): boolean {
  if (s.section !== 'assessment' && s.section !== 'plan') return false;
  const lineStart = s.start === 0 || /\n\s*$/.test(text.slice(Math.max(0, s.start - 4), s.start)) || /^\s*(?:[-*•]|\(?\d{1,2}[.)])/.test(s.text);
  if (!lineStart) return false;
  const words = s.text.replace(/^\s*(?:[-*•]|\(?\d{1,2}[.)])\s*/, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 && words.length <= MAX_HEADING_WORDS && !/:\s*\S/.test(s.text);
}

/** Each heading of the scope with the lines under it (up to the next heading or section). */
export function problemBlocks(text: string, scope: readonly NoteSentence[]): Map<NoteSentence, NoteSentence[]> {
  const blocks = new Map<NoteSentence, NoteSentence[]>();
  let current: NoteSentence | undefined;
  for (const s of scope) {
    if (isProblemHeading(text, s)) {
      current = s;
      blocks.set(s, []);
    } else if (current && s.sectionIndex === current.sectionIndex) blocks.get(current)!.push(s);
    else current = undefined;
  }
  return blocks;
}

/** Site and side words the lines give, when they name exactly one site and one side. */
export function linesQualifiers(lines: readonly NoteSentence[]): string[] {
  const sites = new Set<string>();
  const sides = new Set<string>();
  for (const s of lines) {
    for (const w of wordsOf(s.text)) {
      if (SITE_WORDS[w.norm]) sites.add(w.norm);
      if (w.norm === 'right' || w.norm === 'left') sides.add(w.norm);
    }
  }
  const out: string[] = [];
  if (sites.size === 1) out.push(...SITE_WORDS[[...sites][0]!]!);
  if (sides.size === 1) out.push(...sides, 'unilateral');
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
    if (/\b(?:not|no|never)\s+(?:\w+\s+){0,2}$/i.test(s.text.slice(0, m.index)) || /\bnot\s+(?:been\s+)?(?:elevated|high)/i.test(m[0])) continue;
    if (readRole(s, start, end) === 'current') return { start, end };
  }
  return undefined;
}

const SITE_OR_SIDE = /^(knee|ankle|hip|shoulder|elbow|wrist|hand|foot|lumbar|low|back|cervical|neck|thoracic|right|left|bilateral)$/;

/**
 * A problem heading that leaves out the site or the side ("Back pain.", "Osteoarthritis.") takes
 * them from the lines under it when those name exactly one ("lumbar spine x-ray", "the knee").
 */
export function qualifyFromLines(text: string, scope: readonly NoteSentence[], mentions: Mention[]): void {
  for (const [heading, lines] of problemBlocks(text, scope)) {
    if (!lines.length) continue;
    const extra = linesQualifiers(lines);
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

/** Tests ordered "to confirm the diagnosis": the heading's diagnosis is not yet established. */
const TO_CONFIRM = /\b(?:to confirm (?:the|this|a|her|his|their) (?:diagnosis|suspicion)|confirmatory (?:test|testing|labs?))\b/i;

/**
 * Outpatient rule: a diagnosis whose own lines order tests to confirm it is not coded (its findings
 * are). Returns the heading mentions so set aside; the caller drops them.
 */
export function unconfirmedHeadings(text: string, scope: readonly NoteSentence[], mentions: readonly Mention[]): Set<Mention> {
  const out = new Set<Mention>();
  for (const [heading, lines] of problemBlocks(text, scope)) {
    if (!lines.some((l) => TO_CONFIRM.test(l.text))) continue;
    for (const m of mentions) if (m.sentence === heading && m.role === 'current' && m.concept?.kind !== 'symptom') out.add(m);
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
export function dropUnreliedHistory(text: string, scope: readonly NoteSentence[], candidates: Map<string, Candidate>): void {
  const underProblems = new Set([...problemBlocks(text, scope).values()].flat());
  const sentenceAt = (at: number): NoteSentence | undefined => scope.find((s) => s.start <= at && at < s.end);
  for (const [code, c] of [...candidates]) {
    if ((c.role !== 'history' && c.role !== 'family') || c.headline) continue;
    const sentences = c.spans.map((x) => sentenceAt(x.start)).filter((s): s is NoteSentence => !!s);
    if (sentences.some((s) => underProblems.has(s) || isProblemHeading(text, s) || RELIED_ON.test(s.text))) continue;
    candidates.delete(code);
  }
}
