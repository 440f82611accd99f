/**
 * Aligns one example's words with a window of dictated words. A dynamic programme over
 * (example word, text word) that must consume the whole example, may start and end anywhere in
 * the window, and allows only what dictation produces: a misheard or misspelt word, a word split
 * in two or two written as one, and fillers or a repeated word *inside* the phrase. Any other
 * word in between breaks the match, which is what keeps "her chest feels normal today" from
 * matching "normal chest exam".
 */
import type { Token } from './tokenize.js';
import { Gap } from './tokenize.js';
import type { Lexeme } from './similarity.js';
import type { Pattern } from './macro-index.js';
import { FILLER_PAIRS } from './lexicon.js';

/** What the detector learnt about one match; the confidence is computed from it. */
export interface Alignment {
  pattern: number;
  /** Index of the first and last text token of the phrase (inclusive). */
  first: number;
  last: number;
  /** Similarity of each example word to what was dictated for it. */
  similarities: number[];
  /** Example words written as one text word, or one example word split in two. */
  merges: number;
  /** Hesitations ("uh"), ordinary words used as fillers ("like"), and repeated words skipped. */
  hardFillers: number;
  softFillers: number;
  repeats: number;
  /** Gaps inside the phrase by kind. */
  softGaps: number;
  sentenceGaps: number;
  lineGaps: number;
}

/** Everything the aligner reads about the text. */
export interface TextView {
  tokens: Token[];
  lexemes: Lexeme[];
  /** Similarity of an example word to a text word (memoised by the caller). */
  similarity(a: Lexeme, b: Lexeme): number;
  /** Lexeme of text tokens j and j + 1 written together. */
  joinedLexeme(j: number): Lexeme;
}

/** Most skipped words a phrase may contain. */
export const MAX_SKIPS = 3;

// The DP's own prices only rank paths; the confidence is computed afterwards from the counts.
const GAP_COST: readonly number[] = [0, 0.01, 0.4, 0.6];
const MERGE_COST = 0.02;
/** Words split or joined by the recogniser must still read almost exactly as the example's. */
const MERGE_MIN_SIMILARITY = 0.8;
const SKIP_COST = [0, 0.05, 0.12];
const REPEAT_COST = 0.05;

const OP_MATCH = 1;
const OP_SPLIT = 2;
const OP_JOIN = 3;
const OP_SKIP = 4;
const OP_SKIP2 = 5;

/**
 * Best alignment of `pattern` inside text tokens [from, to), or null when the example cannot
 * be read there.
 */
export function alignInWindow(view: TextView, pattern: Pattern, patternId: number, from: number, to: number): Alignment | null {
  const words = pattern.words;
  const n = words.length;
  const m = to - from;
  if (m <= 0) return null;
  const width = m + 1;
  const size = (n + 1) * width;
  const score = new Float64Array(size).fill(-Infinity);
  const op = new Uint8Array(size);
  const toks = view.tokens;
  const lex = view.lexemes;
  for (let j = 0; j < m; j++) score[j] = 0;


  for (let j = 0; j < m; j++) {
    const t = from + j;
    const gapIn = GAP_COST[toks[t].gap];
    for (let i = 0; i <= n; i++) {
      const here = score[i * width + j];
      if (here === -Infinity) continue;
      const entry = i > 0 ? gapIn : 0;
      if (i < n) {
        const w = words[i];
        const s = view.similarity(w.lex, lex[t]);
        if (s > 0) relax(score, op, (i + 1) * width + j + 1, here + w.weight * s - entry, OP_MATCH);
        if (j + 1 < m && toks[t + 1].gap <= Gap.Soft) {
          const s2 = view.similarity(w.lex, view.joinedLexeme(t));
          if (s2 >= MERGE_MIN_SIMILARITY) {
            const value = here + w.weight * s2 - entry - MERGE_COST - GAP_COST[toks[t + 1].gap];
            relax(score, op, (i + 1) * width + j + 2, value, OP_SPLIT);
          }
        }
        const joined = pattern.joined[i];
        if (joined !== null) {
          const s3 = view.similarity(joined, lex[t]);
          if (s3 >= MERGE_MIN_SIMILARITY) {
            const value = here + (w.weight + words[i + 1].weight) * s3 - entry - MERGE_COST;
            relax(score, op, (i + 2) * width + j + 1, value, OP_JOIN);
          }
        }
        if (i > 0) {
          const f = lex[t].filler;
          if (f > 0) relax(score, op, i * width + j + 1, here - SKIP_COST[f] - gapIn, OP_SKIP);
          else if (t > 0 && lex[t].canon === lex[t - 1].canon) relax(score, op, i * width + j + 1, here - REPEAT_COST - gapIn, OP_SKIP);
          if (j + 1 < m && isFillerPair(lex[t].canon, lex[t + 1].canon)) {
            relax(score, op, i * width + j + 2, here - SKIP_COST[2] - gapIn - GAP_COST[toks[t + 1].gap], OP_SKIP2);
          }
        }
      }
    }
  }

  let bestJ = -1;
  let best = -Infinity;
  for (let j = 1; j <= m; j++) {
    const v = score[n * width + j];
    if (v > best) {
      best = v;
      bestJ = j;
    }
  }
  if (bestJ < 0) return null;
  return trace(view, pattern, patternId, from, op, width, bestJ);
}

/** Keeps the better of two ways into a cell. Module-level so the engine can inline it. */
function relax(score: Float64Array, op: Uint8Array, k: number, value: number, how: number): void {
  if (value > score[k]) {
    score[k] = value;
    op[k] = how;
  }
}

function trace(view: TextView, pattern: Pattern, patternId: number, from: number, op: Uint8Array, width: number, endJ: number): Alignment | null {
  const n = pattern.words.length;
  const a: Alignment = {
    pattern: patternId,
    first: 0,
    last: from + endJ - 1,
    similarities: new Array<number>(n).fill(0),
    merges: 0,
    hardFillers: 0,
    softFillers: 0,
    repeats: 0,
    softGaps: 0,
    sentenceGaps: 0,
    lineGaps: 0,
  };
  let i = n;
  let j = endJ;
  let skips = 0;
  while (i > 0) {
    const how = op[i * width + j];
    const t = from + j - 1;
    if (how === OP_MATCH) {
      a.similarities[i - 1] = view.similarity(pattern.words[i - 1].lex, view.lexemes[t]);
      i -= 1;
      j -= 1;
    } else if (how === OP_SPLIT) {
      a.similarities[i - 1] = view.similarity(pattern.words[i - 1].lex, view.joinedLexeme(t - 1));
      a.merges += 1;
      countGap(a, view.tokens[t].gap);
      i -= 1;
      j -= 2;
    } else if (how === OP_JOIN) {
      const s = view.similarity(pattern.joined[i - 2] as Lexeme, view.lexemes[t]);
      a.similarities[i - 1] = s;
      a.similarities[i - 2] = s;
      a.merges += 1;
      i -= 2;
      j -= 1;
    } else if (how === OP_SKIP || how === OP_SKIP2) {
      const count = how === OP_SKIP ? 1 : 2;
      const lexeme = view.lexemes[t - count + 1];
      if (how === OP_SKIP2) a.softFillers += 1;
      else if (lexeme.filler === 1) a.hardFillers += 1;
      else if (lexeme.filler === 2) a.softFillers += 1;
      else a.repeats += 1;
      for (let k = 0; k < count; k++) countGap(a, view.tokens[t - k].gap);
      skips += 1;
      j -= count;
      continue;
    } else {
      return null;
    }
    // The gap before the token(s) just consumed lies inside the phrase unless this was its start.
    if (i > 0) countGap(a, view.tokens[from + j].gap);
  }
  if (skips > MAX_SKIPS) return null;
  a.first = from + j;
  return a;
}

function countGap(a: Alignment, gap: Gap): void {
  if (gap === Gap.Soft) a.softGaps += 1;
  else if (gap === Gap.Sentence) a.sentenceGaps += 1;
  else if (gap === Gap.Line) a.lineGaps += 1;
}

function isFillerPair(x: string, y: string): boolean {
  for (const [p, q] of FILLER_PAIRS) if (p === x && q === y) return true;
  return false;
}
