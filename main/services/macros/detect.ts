/**
 * Finds candidate macro phrases in a text: blocking-key lookups for each distinct word, then
 * alignment of the examples that enough nearby words point to, then confidence and triggers.
 * Candidates may overlap; `resolve.ts` picks the winners.
 */
import type { Alignment, TextView } from './align.js';
import { alignInWindow, MAX_SKIPS } from './align.js';
import { absorbTriggers, CONFIDENCE, confidenceOf } from './confidence.js';
import type { MacroIndex, Pattern, Postings } from './macro-index.js';
import { bitOf, blockingKeys } from './macro-index.js';
import type { Lexeme } from './similarity.js';
import { createLexemeTable, wordSimilarity } from './similarity.js';
import type { Token } from './tokenize.js';
import { Gap } from './tokenize.js';

/** One possible detection, in code units of the original text. */
export interface Candidate {
  macro: number;
  example: number;
  /** Code-unit offsets, end exclusive. */
  start: number;
  end: number;
  confidence: number;
  /** Example words matched: longer phrases win close contests. */
  words: number;
  /** A spoken command ("insert", "dot", "… macro") joined the span. */
  triggered: boolean;
}

/** Detects every candidate of every example in `tokens` of `text`. */
export function findCandidates(text: string, tokens: Token[], index: MacroIndex, minConfidence = 0): Candidate[] {
  const view = createTextView(tokens);
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const w of collectWindows(view, index, minConfidence)) {
    alignAll(view, index, w.pattern, w.from, w.to, (a) => {
      const key = `${w.pattern}:${a.first}:${a.last}`;
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push(toCandidate(text, view, index, a));
    });
  }
  return candidates;
}

interface Window {
  pattern: number;
  from: number;
  to: number;
}

/**
 * Streams the blocking-key hits of the text's words (in text order) into per-example groups of
 * hits whose implied start positions lie within a few words of each other (fillers shift them),
 * and returns a window to align for every group with enough evidence. Per-example state lives in
 * typed arrays, so a word shared by hundreds of examples costs a few array writes per example.
 */
function collectWindows(view: TextView, index: MacroIndex, minConfidence: number): Window[] {
  const count = index.patterns.length;
  const groupMin = new Int32Array(count).fill(-1);
  const groupMax = new Int32Array(count);
  const groupMask = new Int32Array(count);
  const touched: number[] = [];
  const windows: Window[] = [];
  const { tokens, lexemes } = view;

  const flush = (p: number): void => {
    const pattern = index.patterns[p];
    const mask = groupMask[p];
    let distinct = 0;
    for (let m = mask; m !== 0; m &= m - 1) distinct++;
    if (distinct >= pattern.minHits && mayReach(pattern, mask, minConfidence)) {
      // Fillers before an anchor push the phrase's true start further back.
      const from = Math.max(0, groupMin[p] - MAX_SKIPS - 1);
      const to = Math.min(tokens.length, groupMax[p] + pattern.words.length + MAX_SKIPS + 1);
      windows.push({ pattern: p, from, to });
    }
  };
  const record = (postings: Postings, j: number): void => {
    const { patterns, positions } = postings;
    for (let k = 0; k < patterns.length; k++) {
      const p = patterns[k];
      const pos = positions[k];
      const start = j - pos;
      if (groupMask[p] === 0) {
        touched.push(p);
      } else if (start - groupMax[p] <= MAX_SKIPS && groupMin[p] - start <= MAX_SKIPS) {
        groupMask[p] |= bitOf(pos);
        if (start < groupMin[p]) groupMin[p] = start;
        if (start > groupMax[p]) groupMax[p] = start;
        continue;
      } else {
        flush(p);
      }
      groupMin[p] = start;
      groupMax[p] = start;
      groupMask[p] = bitOf(pos);
    }
  };

  const byWord = new Map<Lexeme, Postings>();
  const byPair = new Map<Lexeme, Postings>();
  for (let j = 0; j < tokens.length; j++) {
    const lex = lexemes[j];
    if (lex.filler === 1) continue;
    let postings = byWord.get(lex);
    if (postings === undefined) byWord.set(lex, (postings = lookup(index, lex, true)));
    record(postings, j);
    // A word the recogniser split in two ("new monia") is looked up written together.
    if (j + 1 < tokens.length && tokens[j + 1].gap <= Gap.Soft) {
      const pair = view.joinedLexeme(j);
      let pairPostings = byPair.get(pair);
      if (pairPostings === undefined) byPair.set(pair, (pairPostings = lookup(index, pair, false)));
      record(pairPostings, j);
    }
  }
  for (const p of touched) flush(p);
  return windows;
}

const NO_POSTINGS: Postings = { patterns: [], positions: [] };

/** The example words a text word may stand for, each once (several keys usually lead to it). */
function lookup(index: MacroIndex, lex: Lexeme, withDeletions: boolean): Postings {
  let out: Postings | null = null;
  let seen: Set<number> | null = null;
  for (const key of blockingKeys(lex, withDeletions)) {
    const list = index.postings.get(key);
    if (list === undefined) continue;
    out ??= { patterns: [], positions: [] };
    seen ??= new Set();
    for (let k = 0; k < list.patterns.length; k++) {
      const id = list.patterns[k] * 256 + list.positions[k];
      if (seen.has(id)) continue;
      seen.add(id);
      out.patterns.push(list.patterns[k]);
      out.positions.push(list.positions[k]);
    }
  }
  return out ?? NO_POSTINGS;
}

/**
 * Whether a group's hits leave room for a match at `minConfidence`, before paying for an
 * alignment. A distinctive word with no hit is at best a distant misspelling (similarity at most
 * MISSING_WORD_BOUND) and a number with no hit cannot match at all. Large macro lists share
 * words ("normal", "exam"); this keeps their cost proportional to plausible matches.
 */
function mayReach(pattern: Pattern, found: number, minConfidence: number): boolean {
  const missing = pattern.anchorMask & ~found;
  if (missing === 0) return true;
  if ((missing & pattern.numericAnchorMask) !== 0) return false;
  let noise = 0;
  for (let m = missing; m !== 0; m &= m - 1) {
    const i = 31 - Math.clz32(m & -m);
    noise += pattern.words[i].weight * (1 - MISSING_WORD_BOUND);
  }
  return CONFIDENCE.sameWords + CONFIDENCE.trigger - CONFIDENCE.wordNoise * (noise / pattern.weightSum) >= minConfidence;
}

const MISSING_WORD_BOUND = 0.8;

function alignAll(view: TextView, index: MacroIndex, patternId: number, from: number, to: number, emit: (a: Alignment) => void): void {
  if (to <= from) return;
  const a = alignInWindow(view, index.patterns[patternId], patternId, from, to);
  if (a === null) return;
  emit(a);
  // The same phrase may be dictated twice within one window.
  alignAll(view, index, patternId, from, a.first, emit);
  alignAll(view, index, patternId, a.last + 1, to, emit);
}

function toCandidate(text: string, view: TextView, index: MacroIndex, a: Alignment): Candidate {
  const pattern = index.patterns[a.pattern];
  const toks = view.tokens;
  const surface = text.slice(toks[a.first].start, toks[a.last].end);
  const span = absorbTriggers(view, a.first, a.last);
  return {
    macro: pattern.macro,
    example: pattern.example,
    start: toks[span.first].start,
    end: toks[span.last].end,
    confidence: confidenceOf(a, pattern, surface, span.triggered),
    words: pattern.words.length,
    triggered: span.triggered,
  };
}

/** Text-side lexemes and memoised similarities for one request. */
function createTextView(tokens: Token[]): TextView {
  const table = createLexemeTable();
  const lexemes = tokens.map((t) => table.get(t.canon));
  // Keyed (example word, text word): ids come from two tables, so the pair order matters.
  const memo = new Map<number, number>();
  const joinedCache = new Map<number, Lexeme>();
  return {
    tokens,
    lexemes,
    similarity(a: Lexeme, b: Lexeme): number {
      const key = a.id * 0x200000 + b.id;
      let s = memo.get(key);
      if (s === undefined) memo.set(key, (s = wordSimilarity(a, b)));
      return s;
    },
    joinedLexeme(j: number): Lexeme {
      let lex = joinedCache.get(j);
      if (lex === undefined) joinedCache.set(j, (lex = table.get(lexemes[j].canon + lexemes[j + 1].canon)));
      return lex;
    },
  };
}
