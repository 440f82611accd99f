/**
 * Tokenisation and canonical word forms. Offsets are UTF-16 code units here (what JavaScript
 * slices with); the service converts them to code points only when it answers.
 */
import { BRITISH_TO_AMERICAN, DIGIT_WORDS, OUR_EXCEPTIONS } from './lexicon.js';

/** What separates a token from the one before it, from cheapest to most telling. */
export const Gap = {
  /** Start of text, spaces or tabs only. */
  Space: 0,
  /** Comma, hyphen, colon, quotes, brackets, slash: formatting the recogniser adds freely. */
  Soft: 1,
  /** A sentence end (. ! ? ;): a phrase rarely runs across one. */
  Sentence: 2,
  /** A line break: a new paragraph or list item. */
  Line: 3,
} as const;
export type Gap = (typeof Gap)[keyof typeof Gap];

export interface Token {
  /** Code-unit offset of the first character. */
  start: number;
  /** Code-unit offset after the last character. */
  end: number;
  /** Canonical form: lower case, no diacritics or apostrophes, American spelling, numbers as words. */
  canon: string;
  /** What lies between the previous token and this one. */
  gap: Gap;
}

// Letters, marks and digits, with apostrophes allowed inside a word ("patient's").
const WORD = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu;
// Scripts written without spaces: one character per token, so phrases can be found inside a run.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const MARKS = /\p{M}/gu;
const APOSTROPHES = /['\u2019]/g;

/**
 * Splits `text` into word tokens with canonical forms and the kind of gap before each.
 * Never throws: any string, including lone surrogates and astral characters, is accepted.
 */
export function tokenize(text: string, canonicalize: Canonicalizer): Token[] {
  const tokens: Token[] = [];
  let previousEnd = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = m[0];
    const start = m.index;
    if (UNSPACED.test(word)) {
      splitUnspaced(text, word, start, previousEnd, tokens, canonicalize);
    } else {
      tokens.push({ start, end: start + word.length, canon: canonicalize(word), gap: classifyGap(text, previousEnd, start) });
    }
    previousEnd = start + word.length;
  }
  return tokens;
}

function splitUnspaced(
  text: string,
  word: string,
  offset: number,
  previousEnd: number,
  out: Token[],
  canonicalize: Canonicalizer,
): void {
  let runStart = -1;
  let gapFrom = previousEnd;
  const flushRun = (end: number): void => {
    if (runStart < 0) return;
    const piece = text.slice(runStart, end);
    out.push({ start: runStart, end, canon: canonicalize(piece), gap: classifyGap(text, gapFrom, runStart) });
    gapFrom = end;
    runStart = -1;
  };
  let i = 0;
  for (const ch of word) {
    const at = offset + i;
    if (UNSPACED.test(ch)) {
      flushRun(at);
      out.push({ start: at, end: at + ch.length, canon: canonicalize(ch), gap: classifyGap(text, gapFrom, at) });
      gapFrom = at + ch.length;
    } else if (runStart < 0) {
      runStart = at;
    }
    i += ch.length;
  }
  flushRun(offset + word.length);
}

function classifyGap(text: string, from: number, to: number): Gap {
  if (from === 0 && to === 0) return Gap.Space;
  let gap: Gap = Gap.Space;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return Gap.Line;
    // An ellipsis ("normal... chest exam") is a pause in dictation, not a sentence end.
    const ellipsis = c === 0x2026 || (c === 46 && (text.charCodeAt(i - 1) === 46 || text.charCodeAt(i + 1) === 46));
    if (ellipsis) {
      if (gap === Gap.Space) gap = Gap.Soft;
    } else if (c === 46 || c === 33 || c === 63 || c === 59 || c === 0x3002 || c === 0xff01 || c === 0xff1f) {
      gap = Gap.Sentence;
    } else if (gap === Gap.Space && c !== 32 && c !== 9 && c !== 0xa0) {
      gap = Gap.Soft;
    }
  }
  return gap;
}

/** Maps one word to its canonical comparison form. */
export type Canonicalizer = (word: string) => string;

/**
 * Builds a canonicaliser with its own bounded memo (dictation repeats words, and the same
 * examples come back on every request). The mapping is applied identically to examples and to
 * dictated text, so an over-eager rule can only merge spellings, never split a phrase from itself.
 */
export function createCanonicalizer(maxEntries = 50_000): Canonicalizer {
  const memo = new Map<string, string>();
  return (word: string): string => {
    const cached = memo.get(word);
    if (cached !== undefined) return cached;
    let w = word.normalize('NFKD').replace(MARKS, '').toLowerCase().replace(APOSTROPHES, '');
    const spelled = DIGIT_WORDS.get(w);
    w = spelled ?? americanize(w);
    // Bounded so a text of unique words cannot grow memory without limit.
    if (memo.size >= maxEntries) memo.clear();
    memo.set(word, w);
    return w;
  };
}

function americanize(w: string): string {
  const listed = BRITISH_TO_AMERICAN.get(w);
  if (listed !== undefined) return listed;
  if (w.length < 5 || !/^[a-z]+$/.test(w)) return w;
  let out = w;
  // haem-, anaem-, ischaem-, paed-, gynaec-: "ae" inside a word is the British digraph.
  if (out.length >= 6 && out.indexOf('ae', 1) > 0) out = out[0] + out.slice(1).replace(/ae/g, 'e');
  if (out.startsWith('oe') && out.length >= 6) out = out.slice(1);
  out = out
    .replace(/isation(s?)$/, 'ization$1')
    .replace(/ys(e|ed|es|ing)$/, 'yz$1')
    .replace(/([a-z]{3})is(e|ed|es|ing)$/, '$1iz$2');
  if (out.endsWith('our') && !OUR_EXCEPTIONS.has(out)) out = out.slice(0, -3) + 'or';
  else if (/ours$/.test(out) && !OUR_EXCEPTIONS.has(out)) out = out.slice(0, -4) + 'ors';
  out = out.replace(/our(ed|ing|ite|ful|less|able)$/, 'or$1');
  // centre, fibre, litre, meagre (but not acre or genre, which American English shares).
  if (/[tbg]re$/.test(out)) out = out.slice(0, -2) + 'er';
  else if (/[tbg]res$/.test(out)) out = out.slice(0, -3) + 'ers';
  return out;
}
