/**
 * Fact fidelity, one rule for every note writer (embedded and language-model alike): each number,
 * dose, unit, frequency, date, side of the body (left/right/bilateral), negation and drug a note
 * states must be supported by its sources (transcript, patient header, previous note, context,
 * instructions); each diagnosis stated as confirmed must be one the encounter holds as confirmed,
 * each vital sign given as today's must have been measured today, each order (test, imaging,
 * referral) must be one the transcript gives, and each sentence must read as a clinician's note,
 * not as conversation (fidelity-claims.ts, fidelity-register.ts, against EncounterFacts). What
 * fails is never silently kept:
 *
 * - **removed**: a number, dose or drug no source states is taken out and a marker stands in its
 *   place, so an invented "metformin 5000 mg" never reaches the physician as a fact;
 * - **marked**: a fact the sources state differently (a swapped side, a flipped negation, another
 *   unit or frequency) stays, followed by a marker saying what the sources say; a number the
 *   transcript says unclearly ("we'll see . five milligrams": 0.5 or 5?) is kept as spoken, in
 *   quotes, and marked, never guessed.
 *
 * The marker is `⚠[check: <reason>]` (see {@link reviewMarker}); `payload.json.review` lists every
 * flagged item with its kind, text, reason, action and position in the markdown. Pure: no I/O.
 */
import type { GeneratedNote, NoteGenerationInput } from './ports.js';
import { findIssues } from './fidelity-checks.js';
import { MARKER_SPAN, type FidelityIssue, type FidelityKind } from './fidelity-issue.js';
import { indexSources, type FidelitySources, type SourceIndex } from './fidelity-sources.js';
import { parseMedicationList } from '../clinical-language/index.js';

export type { FidelityIssue, FidelityKind } from './fidelity-issue.js';
export type { FidelitySources } from './fidelity-sources.js';

/** One flagged item as `payload.json.review` lists it. */
export interface FidelityFlag {
  kind: FidelityKind;
  /** The fact as the writer wrote it ("5000 mg", "left knee", "chest pain"). */
  text: string;
  /** What is wrong, as the marker says it. */
  reason: string;
  action: 'removed' | 'marked';
  /** Where the marked words and their marker stand in `payload.markdown` (UTF-16 offsets, 1-based line). */
  position: { start: number; end: number; line: number };
  /** The heading of the section it is in, when the note has headings. */
  section?: string;
}

/** A note after the check: markers in its markdown and structured form, and the list of what was flagged. */
export interface CheckedNote {
  markdown: string;
  json?: Record<string, unknown>;
  review: FidelityFlag[];
}

/** Starts every review marker; a reader (or the interface) finds markers by it. */
export const REVIEW_MARKER_PREFIX = '⚠[check: ';

/** The visible review marker: `⚠[check: <reason>]` (square brackets in the reason become round). */
export function reviewMarker(reason: string): string {
  return `${REVIEW_MARKER_PREFIX}${reason.replace(/\[/g, '(').replace(/\]/g, ')').replace(/\s+/g, ' ').trim()}]`;
}

/** Every review marker in a text. */
export function reviewMarkersIn(text: string): string[] {
  return text.match(MARKER_SPAN) ?? [];
}

const markerFor = (i: FidelityIssue): string => reviewMarker(i.action === 'removed' ? `removed, ${i.reason}` : i.reason);

/** One change to a text: the span [start, end) becomes `insert`; `issue` when the insert is that issue's marker. */
interface Edit { start: number; end: number; insert: string; issue?: FidelityIssue }

/**
 * A removed item of a list ("denies dysuria, urinary symptoms and headache") leaves the list whole:
 * the item goes with its separator, the list's last "and" stays in its place, and the marker
 * follows the sentence, so the signer reads "Denies dysuria and headache. ⚠[check: removed, ...]"
 * instead of a sentence broken around a marker. Anything else removed (a dose, a number) gives way
 * to its marker where it stood.
 */
function listItemEdits(text: string, issue: FidelityIssue): Edit[] | undefined {
  if (issue.action !== 'removed' || /\d/.test(text.slice(issue.start, issue.end))) return undefined;
  const sentenceStart = Math.max(0, text.lastIndexOf('\n', issue.start - 1) + 1, ...['. ', '! ', '? '].map((p) => { const at = text.lastIndexOf(p, issue.start - 1); return at < 0 ? 0 : at + 2; }));
  const endMatch = /[.!?](?=\s|$)|\n/.exec(text.slice(issue.end));
  const sentenceEnd = endMatch ? issue.end + endMatch.index + (endMatch[0] === '\n' ? 0 : 1) : text.length;
  const before = text.slice(sentenceStart, issue.start);
  const after = text.slice(issue.end, sentenceEnd);
  const marker: Edit = { start: sentenceEnd, end: sentenceEnd, insert: ` ${markerFor(issue)}`, issue };
  const comma = /,\s*$/.exec(before);
  // "A, [Y] and B" / "A, [Y], B": the item goes with the comma before it.
  if (comma && /^(?:\s*,|\s+(?:and|or)\s)/.test(after)) return [{ start: sentenceStart + comma.index, end: issue.end, insert: '' }, marker];
  const joiner = /\s+(?:and|or)\s+$/.exec(before);
  // "A, B and [Y].": the item goes with its "and", and the comma before B becomes the "and".
  if (joiner && /^\s*(?:[.!?]|$)/.test(after)) {
    const lastComma = before.slice(0, joiner.index).lastIndexOf(', ');
    const edits: Edit[] = [{ start: sentenceStart + joiner.index, end: issue.end, insert: '' }, marker];
    if (lastComma >= 0 && !/\b(?:and|or)\b/.test(before.slice(lastComma + 2, joiner.index))) edits.unshift({ start: sentenceStart + lastComma, end: sentenceStart + lastComma + 2, insert: joiner[0].includes('or') ? ' or ' : ' and ' });
    return edits;
  }
  // "Denies [Y], A and B" / "Denies [Y] and A": the item goes with the separator after it.
  const next = /^(?:,\s*|\s+(?:and|or)\s+)/.exec(after);
  // Only inside a list: after a comma another joiner must follow ("No fever, cough productive of sputum" is two statements).
  const listGoesOn = next && (/\b(?:and|or)\b/i.test(next[0]) || /,|\b(?:and|or)\b/i.test(after.slice(next[0].length)));
  if (next && listGoesOn && /(?:^|\b(?:denies|reports|endorses|no|with|of)|:)\s*$/i.test(before)) return [{ start: issue.start, end: issue.end + next[0].length, insert: '' }, marker];
  return undefined;
}

/** Applies issues to a text: removed words give way to their marker, marked words are followed by theirs. */
function applyIssues(text: string, issues: readonly FidelityIssue[]): { text: string; placed: { issue: FidelityIssue; start: number; end: number }[] } {
  const edits: Edit[] = [];
  for (const issue of issues) {
    const tidy = listItemEdits(text, issue);
    // Two removals in one list are each placed where they stood: tidying one around the other would overlap.
    if (tidy && !tidy.some((e) => e.end > e.start && edits.some((o) => o.start < e.end && e.start < o.end))) edits.push(...tidy);
    else edits.push({ start: issue.start, end: issue.end, insert: (issue.action === 'removed' ? '' : `${issue.replacement ?? text.slice(issue.start, issue.end)} `) + markerFor(issue), issue });
  }
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let last = 0;
  const placed: { issue: FidelityIssue; start: number; end: number }[] = [];
  for (const e of edits) {
    if (e.start < last) {
      // Overlapped by an earlier change: the marker still stands, after it.
      if (e.issue) {
        out += ` ${markerFor(e.issue)}`;
        placed.push({ issue: e.issue, start: out.length - markerFor(e.issue).length, end: out.length });
      }
      continue;
    }
    out += text.slice(last, e.start);
    const at = out.length;
    out += e.insert;
    if (e.issue) placed.push({ issue: e.issue, start: e.insert.startsWith(' ⚠') ? at + 1 : at, end: out.length });
    last = e.end;
  }
  return { text: out + text.slice(last), placed: placed.sort((a, b) => a.start - b.start) };
}

const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|([A-Z][A-Z0-9 &/,'()-]{2,}))$/;

function sectionAt(markdown: string, offset: number): string | undefined {
  const lines = markdown.slice(0, offset).split('\n');
  for (let k = lines.length - 1; k >= 0; k--) {
    const m = HEADING.exec(lines[k]!.trim());
    if (m) return (m[1] ?? m[2])!.replace(/\*\*/g, '').trim();
  }
  return undefined;
}

// Keys of a writer's structured note that are layout, not text to check.
const LAYOUT_KEYS = new Set(['id', 'language', 'kinds', 'format', 'level', 'title', 'heading', 'review']);

function checkJson(value: unknown, index: SourceIndex, parentKey = ''): unknown {
  if (typeof value === 'string') return LAYOUT_KEYS.has(parentKey) ? value : applyIssues(value, findIssues(value, index)).text;
  if (Array.isArray(value)) return value.map((v) => checkJson(v, index, parentKey));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, checkJson(v, index, k)]));
  }
  return value;
}

/**
 * Checks a written note against its sources; returns the markdown and structured form with
 * review markers, and the flagged items. Checking a checked note again changes nothing.
 */
export function checkFidelity(note: GeneratedNote, sources: FidelitySources): CheckedNote {
  const index = indexSources(note.facts && !sources.facts ? { ...sources, facts: note.facts } : sources, note.markdown);
  const { text: markdown, placed } = applyIssues(note.markdown, findIssues(note.markdown, index));
  const review = placed.map(({ issue, start, end }): FidelityFlag => {
    const section = sectionAt(markdown, start);
    return {
      kind: issue.kind, text: issue.text, reason: issue.reason, action: issue.action,
      position: { start, end, line: markdown.slice(0, start).split('\n').length }, ...(section ? { section } : {}),
    };
  });
  return { markdown, ...(note.json ? { json: checkJson(note.json, index) as Record<string, unknown> } : {}), review };
}

/**
 * The numbers of a note its sources do not support (unstated, unclear, or with another unit):
 * what `npm run eval:notes` counts as "unsupported numbers". Dates are not counted.
 */
export function unsupportedNumbers(note: string | GeneratedNote, sources: FidelitySources): { kind: FidelityKind; text: string; reason: string }[] {
  const markdown = typeof note === 'string' ? note : note.markdown;
  const index = indexSources(sources, markdown);
  return findIssues(markdown, index)
    .filter((i) => i.kind === 'number' || i.kind === 'dose' || (i.kind === 'unit' && i.reason.startsWith('the transcript says')))
    .map((i) => ({ kind: i.kind, text: i.text, reason: i.reason }));
}

/** Every string of a value (a NoteTemplate's headings, labels and placeholders). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * The sources of a note request. `today` (`YYYY-MM-DD`) dates the patient's age when the
 * request has no encounter date.
 */
export function fidelitySourcesOf(input: NoteGenerationInput, today?: string): FidelitySources {
  const template = [input.noteType.description, input.noteType.template, ...stringsOf(input.noteType.noteTemplate)].filter(Boolean).join('\n');
  return {
    transcript: input.transcript,
    ...(input.patientInfo ? { patientInfo: input.patientInfo } : {}),
    ...(input.date ? { date: input.date } : {}),
    ...(input.previousNote ? { previousNote: input.previousNote } : {}),
    ...(input.context ? { context: input.context } : {}),
    ...(input.instructions ? { instructions: input.instructions } : {}),
    medicationList: parseMedicationList(input.medicationList),
    ...(template ? { template } : {}),
    ...(today ? { today } : {}),
  };
}
