/**
 * Tokens, sentences and speaker lines of transcripts and notes. One splitter for everything
 * that counts or keeps sentences, so a decimal ("2.5 mg"), a title ("Dr. Lee"), a numbered list
 * ("1. Start metformin.") or the recogniser's spoken decimal ("twelve . five milligrams") never
 * ends a sentence in one place and not in another.
 */
import { digitValue, isNumberWord } from './number-words.js';
import { unitAt } from './units.js';

/** A word, number or punctuation mark with its UTF-16 offsets in the text. */
export interface Token {
  text: string;
  start: number;
  end: number;
  kind: 'word' | 'number' | 'punct';
}

// Numbers keep thousands commas and decimals ("1,500", "2.5", "21st"); words keep inner
// apostrophes ("don't"); hyphens separate words ("twenty-five", "58-year-old").
const TOKEN = /\d+(?:,\d{3})*(?:\.\d+)?(?:st|nd|rd|th)?|[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*|[^\s\p{L}\p{M}\p{N}-]/gu;

/** Splits text into word, number and punctuation tokens; whitespace and hyphens separate. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    const kind = /^\d/.test(t) ? 'number' : /^[\p{L}\p{M}]/u.test(t) ? 'word' : 'punct';
    out.push({ text: t, start: m.index, end: m.index + t.length, kind });
  }
  return out;
}

/**
 * Words that, followed by a period, never end a sentence: titles before names and Latin or
 * clinical abbreviations that are written mid-sentence ("e.g.", "approx.", "b.i.d.").
 */
const ABBREVIATION = /(?:^|[^\p{L}.])(mr|mrs|ms|dr|dra|sra|sr|jr|prof|st|mme|mlle|herr|frau|vs|etc|e\.g|i\.e|approx|no|fig|pt|yo|y\.o|b\.i\.d|t\.i\.d|q\.i\.d|q\.d|p\.o|p\.r\.n)\.$/iu;
/**
 * Unit and dosing abbreviations: "10 mg. daily" continues, "500 mg. BP 140/90" ends, so they end
 * a sentence only before a capital letter or a digit.
 */
const UNIT_ABBREVIATION = /(?:^|[^\p{L}])(mg|mcg|ml|cm|mm|kg|lb|lbs|oz|hr|hrs|min|mins|sec|wk|wks|yr|yrs|tab|tabs|cap|caps|bid|tid|qid|qd|qhs|po|prn|sig|disp)\.$/iu;
const CLOSERS = /["”’')\]]/;
const CJK_END = /[。！？]/;
/** Words after which a spoken ". five" is a decimal, never a sentence start ("a . five centimeter stone"). */
const NON_FINAL = new Set(['a', 'an', 'than', 'about', 'around', 'approximately', 'roughly', 'nearly', 'almost', 'measuring',
  'measures', 'measured', 'of', 'is', 'was', 'at', 'only', 'just', 'by', 'to', 'under', 'over', 'another', 'extra']);
/** Nouns of measure that are not written as unit symbols but still need a number ("a . five mile walk"). */
const MEASURE_NOUN = /^(miles?|feet|foot|inch(es)?|hours?|minutes?|days?|weeks?|months?|years?|seconds?|tablets?|pills?|capsules?|doses?)$/;

/** True for a word after which a sentence cannot end ("a", "than", "measuring"), so a number must follow. */
export function cannotEndSentence(word: string): boolean {
  return NON_FINAL.has(word.toLowerCase());
}

/** The lower-case word ending just before `end`, and the one starting at `from` (letters only). */
const wordBefore = (text: string, end: number): string => (/([\p{L}]+)\s*$/u.exec(text.slice(Math.max(0, end - 40), end))?.[1] ?? '').toLowerCase();
const wordsAfter = (text: string, from: number, n: number): string[] =>
  text.slice(from, from + 80).toLowerCase().split(/[^\p{L}\p{N}.%]+/u).filter(Boolean).slice(0, n);

/**
 * What the period at `i` is when the recogniser wrote "point" as " . ": `after-number` for
 * "two . five" and "ninety eight . six"; `bare` for ". five" between a word that cannot end a
 * sentence and a unit ("a . five centimeter stone"); `maybe-bare` when a unit follows but the
 * word before could end a sentence ("we'll see . five milligrams daily"); null for a period
 * that is punctuation.
 */
export function spokenPoint(text: string, i: number): 'after-number' | 'bare' | 'maybe-bare' | null {
  if (text[i] !== '.' || !/\s/.test(text[i - 1] ?? '') || !/\s/.test(text[i + 1] ?? '')) return null;
  const before = wordBefore(text, i);
  const after = wordsAfter(text, i + 1, 6);
  if (digitValue(after[0]) === undefined) return null;
  let k = 1;
  while (digitValue(after[k], true) !== undefined) k++;
  const following = after[k];
  if (following === 'hundred' || following === 'thousand' || (isNumberWord(following) && digitValue(following) === undefined)) return null;
  if (isNumberWord(before)) return 'after-number';
  const unit = unitAt(after, k) !== null;
  if (NON_FINAL.has(before) && (unit || MEASURE_NOUN.test(after[k] ?? ''))) return 'bare';
  // After a word that can end a sentence, ". five years ago" is a new sentence; ". five milligrams" may be either.
  return unit ? 'maybe-bare' : null;
}

/** A sentence and its offsets in the text it came from (`text` is the trimmed slice). */
export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

export interface SplitOptions {
  /** Also end a sentence at every line break (note text with one statement per line). */
  lineBreaks?: boolean;
}

/** True when the period at `i` ends a numbered-list marker ("1." at a line start, or after "Plan: "). */
function isListMarker(text: string, sentenceStart: number, i: number): boolean {
  return /(?:^|\n|:)\s*\(?\d{1,2}$/.test(text.slice(sentenceStart, i)) && /^\s+\S/.test(text.slice(i + 1, i + 3));
}

/** Splits prose into sentences with their offsets, each keeping its end punctuation. */
export function sentenceSpans(text: string, opts: SplitOptions = {}): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = 0;
  const push = (end: number): void => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const s = raw.trim();
    if (s) out.push({ text: s, start: start + lead, end: start + lead + s.length });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n' && opts.lineBreaks) {
      push(i);
      continue;
    }
    if (CJK_END.test(ch)) {
      let end = i + 1;
      while (end < text.length && (CJK_END.test(text[end]!) || CLOSERS.test(text[end]!))) end++;
      push(end);
      i = end - 1;
      continue;
    }
    if (ch !== '.' && ch !== '!' && ch !== '?' && ch !== '…') continue;
    let end = i + 1;
    while (end < text.length && /[.!?…]/.test(text[end]!)) end++;
    while (end < text.length && CLOSERS.test(text[end]!)) end++;
    // A mark inside a token ("2.5", "e.g.", "U.S.") is not an end.
    if (end < text.length && !/\s/.test(text[end]!)) {
      i = end - 1;
      continue;
    }
    if (ch === '.' && end === i + 1) {
      const sofar = text.slice(start, end);
      if (ABBREVIATION.test(sofar)) continue;
      if (UNIT_ABBREVIATION.test(sofar) && /^\s+[\p{Ll}]/u.test(text.slice(end, end + 3))) continue;
      if (isListMarker(text, start, i)) continue;
      const point = spokenPoint(text, i);
      if (point === 'after-number' || point === 'bare') continue;
    }
    push(end);
    i = end - 1;
  }
  push(text.length);
  return out;
}

/** Splits prose into sentences, each keeping its end punctuation (see {@link sentenceSpans}). */
export function splitSentences(text: string, opts: SplitOptions = {}): string[] {
  return sentenceSpans(text, opts).map((s) => s.text);
}

/** One line of a transcript with its speaker label as written (`doctor`, `Speaker 1`), '' when untagged. */
export interface SpeakerLine {
  speaker: string;
  text: string;
}

// `[doctor] text` (ACI-Bench, most exports) and `Doctor: text` / `医生：text`.
const BRACKET_TAG = /^\s*\[([^\]]{1,40})\]\s*:?\s*/u;
const COLON_TAG = /^\s*([\p{L}][\p{L}\p{N} .'-]{0,30}?)\s*[:：]\s+|^\s*([\p{L}][\p{L}\p{N} .'-]{0,30}?)\s*：\s*/u;

/**
 * Reads a speaker tag at the start of a line. Bracket tags always count; a `Label:` tag counts
 * only when `isLabel` accepts the label, because "Blood pressure: 120/80" is not a speaker.
 */
export function readSpeakerTag(line: string, isLabel: (label: string) => boolean = () => false): SpeakerLine | null {
  const b = BRACKET_TAG.exec(line);
  if (b) return { speaker: b[1]!.trim(), text: line.slice(b[0].length) };
  const c = COLON_TAG.exec(line);
  if (c) {
    const label = (c[1] ?? c[2] ?? '').trim();
    if (isLabel(label)) return { speaker: label, text: line.slice(c[0].length) };
  }
  return null;
}

/**
 * Splits a transcript into speaker lines: untagged lines continue the tagged line above them;
 * before any tag (or in an untagged text) each non-empty line stands alone with speaker ''.
 */
export function speakerLines(transcript: string, isLabel?: (label: string) => boolean): SpeakerLine[] {
  const out: SpeakerLine[] = [];
  let tagged = false;
  for (const raw of transcript.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const tag = readSpeakerTag(line, isLabel);
    if (tag) {
      tagged = true;
      out.push(tag);
    } else if (tagged) out[out.length - 1]!.text += ` ${line}`;
    else out.push({ speaker: '', text: line });
  }
  return out;
}

/** Replaces inline `[doctor]`, `[patient]`, `[speaker 1]` tags with line breaks (for text-only consumers). */
export function stripSpeakerTags(text: string): string {
  return text.replace(/\[(doctor|patient|patient_guest|doctor_guest|speaker|guest|nurse)[^\]]{0,30}\]/gi, '\n');
}
