/**
 * The encounter understanding of a written note: its sections and sentences, the problems its
 * assessment names (a heading per problem, "1. Left knee pain.", with the lines under it), each
 * with its certainty and side, and what the note asserts of any finding it names (assertion.ts).
 * The coder codes from this; it keeps no negation, uncertainty, history or family rules of its own.
 */
import { assertFinding, ordersTestsToConfirm, type AssertionHints, type FindingAssertion } from './assertion.js';
import { laterality } from './attributes.js';
import { problemTerm } from './problems.js';
import type { Certainty, Laterality } from './types.js';
import { readDocument, type NoteDocument, type NoteSentence } from './written-note.js';

/** A problem of a problem-oriented assessment: its heading and the lines under it. */
export interface NoteProblem {
  /** The heading's words as a clinical term. */
  name: string;
  heading: NoteSentence;
  lines: NoteSentence[];
  /** `probable` when its own lines order tests to confirm it: the diagnosis is not yet established. */
  certainty: Certainty;
  /** The side the heading names, else the one side its lines name. */
  laterality?: Laterality;
  /** True when the side comes from the lines, the heading naming none. */
  sideFromLines?: boolean;
}

export interface NoteFacts {
  document: NoteDocument;
  /** The sentences that say what the visit addressed: the assessment and plan (and medications) when the note has one, else all but exam and results. */
  scope: NoteSentence[];
  problems: NoteProblem[];
}

const MAX_HEADING_WORDS = 9;
const LIST_MARK = /^\s*(?:[-*•]|\(?\d{1,2}[.)])\s*/;

/** True when a sentence opens a line of the assessment or plan and is short enough to be a problem's heading. */
export function isProblemHeading(text: string, s: NoteSentence): boolean {
  if (s.section !== 'assessment' && s.section !== 'plan') return false;
  const lineStart = s.start === 0 || /\n\s*$/.test(text.slice(Math.max(0, s.start - 4), s.start)) || /^\s*(?:[-*•]|\(?\d{1,2}[.)])/.test(s.text);
  if (!lineStart) return false;
  const words = s.text.replace(LIST_MARK, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length > 0 && words.length <= MAX_HEADING_WORDS && !/:\s*\S/.test(s.text);
}

/** Which sentences say what the visit addressed: the assessment when the note has one, else everything but exam and results. */
export function sentencesInScope(doc: NoteDocument): NoteSentence[] {
  if (doc.hasAssessment) return doc.sentences.filter((s) => s.section === 'assessment' || s.section === 'plan' || s.section === 'medications');
  return doc.sentences.filter((s) => s.section !== 'exam' && s.section !== 'results');
}

/** The one side ("right" or "left") a problem's lines name, when they name exactly one. */
function sideOfLines(lines: readonly NoteSentence[]): Laterality | undefined {
  const sides = new Set<string>();
  for (const s of lines) for (const m of s.text.matchAll(/\b(right|left)\b/gi)) sides.add(m[1]!.toLowerCase());
  return sides.size === 1 ? ([...sides][0] as Laterality) : undefined;
}

/** Each heading of the scope with the lines under it (up to the next heading or section). */
function readProblems(text: string, scope: readonly NoteSentence[]): NoteProblem[] {
  const problems: NoteProblem[] = [];
  let current: NoteProblem | undefined;
  for (const s of scope) {
    if (isProblemHeading(text, s)) {
      current = { name: problemTerm(s.text.replace(LIST_MARK, '').replace(/[.;:]\s*$/, '')), heading: s, lines: [], certainty: 'confirmed' };
      problems.push(current);
    } else if (current && s.sectionIndex === current.heading.sectionIndex) current.lines.push(s);
    else current = undefined;
  }
  for (const p of problems) {
    if (p.lines.some((l) => ordersTestsToConfirm(l.text))) p.certainty = 'probable';
    const own = laterality(p.heading.text);
    const fromLines = own ? undefined : sideOfLines(p.lines);
    if (own ?? fromLines) p.laterality = own ?? fromLines;
    if (fromLines) p.sideFromLines = true;
  }
  return problems;
}

/** Read a written note into the facts a coder or extractor needs. */
export function understandNote(text: string): NoteFacts {
  const document = readDocument(text);
  const scope = sentencesInScope(document);
  return { document, scope, problems: document.hasAssessment ? readProblems(text, scope) : [] };
}

/** What the note asserts of the finding at `[start, end)` (offsets in the note) of one of its sentences. */
export function assertInNote(sentence: NoteSentence, start: number, end: number, hints: Omit<AssertionHints, 'section'> = {}): FindingAssertion {
  return assertFinding(sentence.text, start - sentence.start, end - sentence.start, { ...hints, section: sentence.section });
}
