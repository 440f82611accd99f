/**
 * Word-level similarity for dictated text: spelling distance (optimal string alignment, so a
 * swapped pair of letters costs one edit) combined with Double Metaphone codes for sound-alike
 * recognition errors ("hart" for "heart", "eggs am" for "exam"). Both come from
 * `clinical-language/`, shared with medication correction.
 */
import { editDistance } from '../clinical-language/edit-distance.js';
import { keysMatch, soundKeys, type SoundKeys } from '../clinical-language/phonetic.js';
import { CONTRAST_PREFIX_PAIRS, FILLERS, NEGATIONS, NUMBER_WORDS, SOFT_FILLERS, STOP_WORDS } from './lexicon.js';

/** A distinct canonical word with what similarity needs precomputed. */
export interface Lexeme {
  /** Number unique within its table, for cheap memo keys. */
  id: number;
  canon: string;
  /** Double Metaphone primary and secondary codes; null for non-alphabetic words. */
  phon: SoundKeys | null;
  /** Contains a digit, or is a number word: numbers must match exactly or by sound. */
  numeric: boolean;
  stop: boolean;
  /** 0 not a filler, 1 a pure hesitation ("uh"), 2 a word that can also be a filler ("like"). */
  filler: 0 | 1 | 2;
}

/** Below this a word pair is treated as different words. */
export const MIN_WORD_SIMILARITY = 0.6;

const ALPHA = /^[a-z]+$/;
const DIGIT = /\p{N}/u;

/** Builds the lexeme of a canonical word. */
export function makeLexeme(canon: string, id = 0): Lexeme {
  const alpha = ALPHA.test(canon);
  return {
    id,
    canon,
    phon: alpha ? soundKeys(canon) : null,
    numeric: NUMBER_WORDS.has(canon) || DIGIT.test(canon),
    stop: STOP_WORDS.has(canon),
    filler: FILLERS.has(canon) ? 1 : SOFT_FILLERS.has(canon) ? 2 : 0,
  };
}

/** How many edits a word of this length may carry and still count as the same word. */
export function allowedEdits(length: number): number {
  if (length <= 2) return 0;
  if (length <= 5) return 1;
  if (length <= 11) return 2;
  return 3;
}

/**
 * Similarity in [0, 1] of a word from an example and a word from the text; 0 when they should
 * not be considered the same word. 1 only for identical canonical forms.
 */
export function wordSimilarity(a: Lexeme, b: Lexeme): number {
  if (a.canon === b.canon) return 1;
  // A negation is matched exactly or by a listed homophone ("know"), never by resemblance.
  const negA = NEGATIONS.get(a.canon);
  const negB = NEGATIONS.get(b.canon);
  if (negA !== undefined || negB !== undefined) {
    return negA?.includes(b.canon) || negB?.includes(a.canon) ? 0.8 : 0;
  }
  // "2 weeks" must never match "3 weeks": numbers agree exactly or by sound ("four"/"for").
  const numeric = a.numeric || b.numeric;
  if (numeric && ((a.numeric && b.numeric) || DIGIT.test(a.canon) || DIGIT.test(b.canon))) return 0;
  const la = a.canon.length;
  const lb = b.canon.length;
  const longest = Math.max(la, lb);
  let best = 0;
  const maxEdits = numeric ? 0 : allowedEdits(longest);
  if (maxEdits > 0 && Math.abs(la - lb) <= maxEdits) {
    const d = editDistance(a.canon, b.canon, { max: maxEdits });
    if (d <= maxEdits) {
      best = 1 - d / longest;
      // Misspellings rarely touch the first letter; a different first letter is weaker evidence.
      if (a.canon.charCodeAt(0) !== b.canon.charCodeAt(0)) best -= 0.1;
    }
  }
  if (a.phon !== null && b.phon !== null && Math.min(la, lb) * 2 >= longest && keysMatch(a.phon, b.phon)) {
    const codeLength = Math.min(a.phon[0].length, b.phon[0].length);
    const phonetic = codeLength >= 3 ? 0.85 : codeLength === 2 ? 0.8 : 0.7;
    if (phonetic > best) best = phonetic;
  }
  return best >= MIN_WORD_SIMILARITY && !contrasting(a.canon, b.canon) ? best : 0;
}

/**
 * Whether two words differ by a meaning-changing prefix ("normal"/"abnormal",
 * "increase"/"decrease", "preoperative"/"postoperative"), allowing one edit in a long stem.
 */
export function contrasting(a: string, b: string): boolean {
  for (const [p, q] of CONTRAST_PREFIX_PAIRS) {
    if (prefixedPair(a, b, p, q) || prefixedPair(b, a, p, q)) return true;
  }
  return false;
}

function prefixedPair(a: string, b: string, pa: string, pb: string): boolean {
  if (!a.startsWith(pa) || !b.startsWith(pb)) return false;
  const stemA = a.slice(pa.length);
  const stemB = b.slice(pb.length);
  if (stemA.length < 4) return false;
  if (stemA === stemB || uninflected(stemA) === uninflected(stemB)) return true;
  // Between two real prefixes ("inspiration"/"expiration") the stems may differ by a letter; a
  // bare word against a prefixed one must match exactly, or "oscultation" would contrast with
  // "auscultation" as "a" + "uscultation".
  return pa !== '' && pb !== '' && stemA.length >= 6 && editDistance(stemA, stemB, { max: 1 }) <= 1;
}

/** The word without a common English inflection ("completed" -> "complete"). */
function uninflected(w: string): string {
  const m = /^(.{4,}?)(?:ed|d|es|s|ing|ly)$/.exec(w);
  return m === null ? w : m[1];
}

/**
 * Interns lexemes and memoises pair similarities. One per macro index (examples) plus a
 * per-request map for the text's words keeps the work proportional to distinct words.
 */
export interface LexemeTable {
  get(canon: string): Lexeme;
}

/** Creates a lexeme table that builds each lexeme once. */
export function createLexemeTable(): LexemeTable {
  const byCanon = new Map<string, Lexeme>();
  return {
    get(canon: string): Lexeme {
      let lex = byCanon.get(canon);
      if (lex === undefined) {
        lex = makeLexeme(canon, byCanon.size);
        byCanon.set(canon, lex);
      }
      return lex;
    },
  };
}
