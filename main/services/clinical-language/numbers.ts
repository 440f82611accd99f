/**
 * Numbers in transcripts and notes, read with their places in the text: cardinals and the clinical
 * short form, decimals ("point five", the recogniser's "two . five" and "a . five centimeter"),
 * ranges ("two to three weeks"), readings ("one twenty over eighty"), years, and disfluent
 * repeats folded once ("six hundred six hundred milligrams" is 600, never 60600; "two two" is 2,
 * never 22). Readings that could mean two things are marked `uncertain` with the alternatives,
 * so a caller keeps the spoken words for review rather than guessing.
 */
import { readNumberAt, type WordNumber } from './number-words.js';
import { cannotEndSentence, spokenPoint, tokenize, type Token } from './tokenize.js';
import { unitAt } from './units.js';

/** One number (or range, or reading such as a blood pressure) found in a text. */
export interface NumberReading {
  /** UTF-16 offsets of the words read, in the text given. */
  start: number;
  end: number;
  /** The words as written in the text ("one twenty over eighty"). */
  spoken: string;
  /** Written form: "600", "0.5", "2-3", "120/80", "2024". */
  text: string;
  value: number;
  /** Upper end of a range ("two to three" -> value 2, to 3). */
  to?: number;
  /** Second value of a reading ("one twenty over eighty" -> value 120, over 80). */
  over?: number;
  kind: 'number' | 'range' | 'ratio' | 'year';
  /** True when at least one word was spelled out (false for "120 over 80"). */
  spelled: boolean;
  /** True when the words could also mean something else: keep them and mark for review. */
  uncertain: boolean;
  /** Why the reading is uncertain, in words a reviewer understands. */
  reason?: string;
  /** Other values the words could mean (for "two twenty milligram tablets": 2 and 20). */
  alternatives?: number[];
  /** True when a disfluent repeat or false start was folded into this reading. */
  repeated?: boolean;
}

/** Words before a number that make it a change of dose, not a range ("from ten to twenty"). */
const CHANGE_BEFORE = new Set(['from', 'increase', 'increased', 'increasing', 'decrease', 'decreased', 'reduce', 'reduced',
  'titrate', 'bump', 'bumped', 'raise', 'raised', 'lower', 'lowered', 'change', 'changed', 'switch', 'switched', 'went', 'go', 'up', 'down']);
/** Words that say a year follows. */
const YEAR_CUES = new Set(['in', 'since', 'of', 'from', 'until', 'till', 'by', 'year', 'back', 'during', 'before', 'after', 'january',
  'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'summer', 'winter', 'spring', 'fall']);
/** Determiners before "point" that make it a noun ("at this point five patients"). */
const POINT_NOUN_BEFORE = new Set(['this', 'that', 'the', 'some', 'any', 'which', 'what', 'each', 'every', 'no', 'one', 'another', 'good',
  'main', 'next', 'last', 'first', 'trigger', 'pressure', 'tender', 'end', 'certain', 'same', 'exact', 'my', 'your', 'his', 'her', 'our', 'their', 'its']);
/** Count nouns after a singular unit: "two twenty milligram tablets" is two tablets of 20 mg, or 220 mg. */
const COUNT_AFTER_UNIT = /^(tablets?|pills?|capsules?|caps|doses?|injections?|shots?|patches|vials?|bottles?|walks?|sessions?|breaks?|intervals?|increments?|pieces?|bags?|packs?|cans?|servings?|meals?)$/;
const SINGULAR_UNIT = /^(milligram|microgram|gram|mg|mcg|unit|minute|hour|day|week|month|year|pound|ounce|mile|liter|milliliter|ml|inch|foot)$/;

const spelledOut = (s: string): boolean => /\p{L}/u.test(s);

/** Lower-case words for the word reader: spoken decimal points kept, other punctuation neutralised. */
function wordsOf(text: string, tokens: Token[]): { words: string[]; bare: Map<number, 'bare' | 'maybe-bare'> } {
  const bare = new Map<number, 'bare' | 'maybe-bare'>();
  const words = tokens.map((t, k) => {
    if (t.kind === 'number') return t.text.replace(/,/g, '');
    if (t.kind === 'word') return t.text.toLowerCase().replace(/’/g, "'");
    if (t.text === '/') return '/';
    if (t.text !== '.') return t.text;
    const point = spokenPoint(text, t.start);
    if (point === 'after-number') return '.';
    if (point === 'bare' || point === 'maybe-bare') {
      bare.set(k, point);
      return 'point';
    }
    return '.stop';
  });
  return { words, bare };
}

/** Reads every number in the text, in order, with its offsets (see {@link NumberReading}). */
export function readNumbers(text: string): NumberReading[] {
  const tokens = tokenize(text);
  const { words, bare } = wordsOf(text, tokens);
  const raw: NumberReading[] = [];
  const span = (from: number, next: number): { start: number; end: number; spoken: string } => {
    const start = tokens[from]!.start;
    const end = tokens[next - 1]!.end;
    return { start, end, spoken: text.slice(start, end) };
  };
  let i = 0;
  while (i < tokens.length) {
    // "Call nine one one": the emergency number is said digit by digit, and is one number, not three.
    if (words[i] === 'nine' && words[i + 1] === 'one' && words[i + 2] === 'one' && !/^(?:hundred|thousand|point|and)$/.test(words[i + 3] ?? '')) {
      raw.push({ ...span(i, i + 3), text: '911', value: 911, kind: 'number', spelled: true, uncertain: false });
      i += 3;
      continue;
    }
    const barePoint = words[i] === 'point' && barePointAllowed(words, i, bare.get(i));
    const n = readNumberAt(words, i, { barePoint: barePoint !== false, foldRepeats: true });
    if (!n) {
      i++;
      continue;
    }
    let next = n.next;
    let reading: NumberReading = {
      ...span(i, next), text: n.text, value: n.value, kind: n.form === 'year' ? 'year' : 'number', spelled: false, uncertain: false,
      ...(n.repeated ? { repeated: true } : {}),
    };
    if (barePoint === 'uncertain') {
      Object.assign(reading, { uncertain: true, reason: 'a sentence break or a decimal point', alternatives: [Number(n.text.replace(/^0\./, ''))] });
    }
    const joiner = words[next];
    const second = (joiner === 'over' || joiner === '/' || joiner === 'to') && n.form !== 'year' ? readNumberAt(words, next + 1) : null;
    if (second && second.form !== 'year' && (joiner !== 'to' || isRange(n, second, words[i - 1]))) {
      next = second.next;
      const ratio = joiner !== 'to';
      reading = {
        ...reading, ...span(i, next), kind: ratio ? 'ratio' : 'range',
        text: `${n.text}${ratio ? '/' : '-'}${second.text}`, ...(ratio ? { over: second.value } : { to: second.value }),
      };
    } else if (n.form === 'short' && SINGULAR_UNIT.test(words[next] ?? '') && COUNT_AFTER_UNIT.test(words[next + 1] ?? '')) {
      Object.assign(reading, { uncertain: true, reason: 'a count then a strength, or one number' });
    } else if (n.form === 'year' && !YEAR_CUES.has(words[i - 1] ?? '')) {
      Object.assign(reading, { uncertain: true, reason: 'a year or two numbers', alternatives: [Math.floor(n.value / 100), n.value % 100] });
    }
    // "one twenty" is 120 by clinical habit, but the words can also be 1 and 20.
    if (n.form === 'short' && reading.kind === 'number') reading.alternatives = [Math.floor(n.value / 100), n.value % 100];
    reading.spelled = spelledOut(reading.spoken);
    raw.push(reading);
    i = next;
  }
  return foldAdjacent(text, raw);
}

/** Whether a bare "point five" is a decimal: true, false, or 'uncertain' (keep the words). */
function barePointAllowed(words: readonly string[], i: number, dotted: 'bare' | 'maybe-bare' | undefined): boolean | 'uncertain' {
  if (dotted === 'bare') return true;
  if (dotted === 'maybe-bare') return 'uncertain';
  const before = words[i - 1] ?? '';
  if (POINT_NOUN_BEFORE.has(before)) return false;
  let k = i + 1;
  while (/^(zero|oh|one|two|three|four|five|six|seven|eight|nine)$/.test(words[k] ?? '')) k++;
  return unitAt(words, k) !== null || cannotEndSentence(before) ? true : 'uncertain';
}

function isRange(a: WordNumber, b: WordNumber, before: string | undefined): boolean {
  return b.value > a.value && !CHANGE_BEFORE.has(before ?? '');
}

const wordList = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}.]+/u).filter(Boolean);

/**
 * Folds repeats and false starts ("six hundred six hundred", "ninety ninety seven . two") into
 * the reading that follows; marks other spelled numbers said back to back ("two three times") as
 * uncertain, since they may be a range, a correction or two quantities.
 */
function foldAdjacent(text: string, readings: NumberReading[]): NumberReading[] {
  const out: NumberReading[] = [];
  for (const r of readings) {
    const prev = out[out.length - 1];
    const gap = prev ? text.slice(prev.end, r.start) : '';
    if (!prev || !/^[\s,-]*$/.test(gap) || (!prev.spelled && !r.spelled)) {
      out.push(r);
      continue;
    }
    const a = wordList(prev.spoken);
    const b = wordList(r.spoken);
    // A single word said twice ("two two") stays two numbers, flagged below. A restart goes on
    // from what was said ("ninety, ninety seven"); a third saying repeats the end of a folded one.
    const restart = (a.length > 1 || b.length > 1) && a.length <= b.length && a.every((w, k) => b[k] === w);
    const again = prev.repeated === true && b.length < a.length && b.every((w, k) => a[a.length - b.length + k] === w) && r.text === prev.text;
    if (again) {
      out[out.length - 1] = { ...prev, end: r.end, spoken: text.slice(prev.start, r.end) };
      continue;
    }
    if (restart) {
      out[out.length - 1] = { ...r, start: prev.start, spoken: text.slice(prev.start, r.end), repeated: true };
      continue;
    }
    if (!gap.includes(',')) {
      const reason = 'numbers said back to back';
      for (const x of [prev, r]) Object.assign(x, { uncertain: true, reason: x.reason ?? reason });
    }
    out.push(r);
  }
  return out;
}

/**
 * Every number a text states, as canonical digit strings ("one thirty over eighty five" -> 130,
 * 85...), including the alternatives of uncertain readings, the parts of decimals, and the counts
 * said as "a", "once", "twice", "a couple", "half". For checking that a written number has a source.
 */
export function statedNumbers(text: string): Set<string> {
  const out = new Set<string>();
  const add = (v: number | undefined): void => {
    if (v !== undefined && Number.isFinite(v)) out.add(String(v));
  };
  for (const r of readNumbers(text)) {
    [r.value, r.to, r.over, ...(r.alternatives ?? [])].forEach(add);
    // "2.5 mg" also states 2 and 5: lenient, as a sentence is dropped on any unstated number.
    for (const part of r.text.split(/[-/]/)) part.split('.').forEach((p) => add(Number(p)));
  }
  // Digits inside other tokens ("21st", "x3", "COVID-19") state their numbers too.
  for (const m of text.matchAll(/\d+(?:\.\d+)?/g)) {
    add(Number(m[0]));
    m[0].split('.').forEach((p) => add(Number(p)));
  }
  const lower = text.toLowerCase();
  if (/\b(a|an|once|single)\b/.test(lower)) out.add('1');
  if (/\b(twice|couple)\b/.test(lower)) out.add('2');
  if (/\bhalf\b/.test(lower)) out.add('0.5');
  return out;
}

/**
 * Rewrites the spoken decimal points of a transcript ("two . five", "a . five centimeter") as
 * the word "point", so later clean-up and sentence splitting cannot cut the number in two.
 * Uncertain ones ("we'll see . five milligrams") are left as they are.
 */
export function joinSpokenDecimals(text: string): string {
  let out = '';
  let last = 0;
  for (const t of tokenize(text)) {
    if (t.text !== '.') continue;
    const point = spokenPoint(text, t.start);
    if (point !== 'after-number' && point !== 'bare') continue;
    out += `${text.slice(last, t.start)}point`;
    last = t.end;
  }
  return out + text.slice(last);
}
