/**
 * The searchable form of a macro list: every example tokenised once, and an inverted index from
 * blocking keys (canonical word, its one-letter deletions, its sound code) to the example words
 * that carry them. The detector looks up each distinct word of the text once and only aligns
 * examples that some word of the text could belong to.
 */
import type { Canonicalizer } from './tokenize.js';
import { tokenize } from './tokenize.js';
import type { Lexeme, LexemeTable } from './similarity.js';
import { singleDeletions } from '../clinical-language/edit-distance.js';

export interface PatternWord {
  lex: Lexeme;
  /** Share of the phrase's evidence: function words count for less. */
  weight: number;
}

export interface Pattern {
  /** Position of the macro in the request. */
  macro: number;
  /** Position of the example in the macro. */
  example: number;
  words: PatternWord[];
  /** Lexeme of words[i] + words[i + 1] written together ("follow up" -> "followup"). */
  joined: Array<Lexeme | null>;
  /** The examples as given, from first to last word (all with these words): a verbatim match scores 1. */
  cores: string[];
  /** Positions whose words are distinctive enough to anchor a search. */
  anchors: number[];
  /** Distinct anchors that must be hit near a place before it is aligned there. */
  minHits: number;
  /** Bit i set when word i (i < 30) is an anchor / an anchor that is a number. */
  anchorMask: number;
  numericAnchorMask: number;
  weightSum: number;
}

/** Parallel lists of (pattern, word position) carrying one blocking key. */
export interface Postings {
  patterns: number[];
  positions: number[];
}

export interface MacroIndex {
  patterns: Pattern[];
  /** Blocking key -> the example words that carry it. */
  postings: Map<string, Postings>;
  lexemes: LexemeTable;
}

/** Word positions tracked one bit each in masks; later positions share the last bit. */
export const MASK_POSITIONS = 30;
/** The mask bit of a word position. */
export const bitOf = (pos: number): number => 1 << Math.min(pos, MASK_POSITIONS);

const STOP_WEIGHT = 0.5;

/**
 * Blocking keys for one word: exact form and one-letter deletions ("d"), sound codes ("p").
 * Two words that share a key are within about two edits or sound alike.
 */
export function blockingKeys(lex: Lexeme, withDeletions: boolean): string[] {
  const keys = ['d' + lex.canon];
  if (withDeletions && !lex.numeric && lex.canon.length >= 3) {
    for (const d of singleDeletions(lex.canon)) keys.push('d' + d);
  }
  // One-letter codes ("T", "N") would match half the dictionary; they only count once aligned.
  if (lex.phon !== null) {
    if (lex.phon[0].length >= 2) keys.push('p' + lex.phon[0]);
    if (lex.phon[1] !== lex.phon[0] && lex.phon[1].length >= 2) keys.push('p' + lex.phon[1]);
  }
  return keys;
}

/**
 * Builds the index of a macro list. Examples that tokenise to nothing are the caller's error
 * and are rejected by validation before this runs.
 */
export function buildMacroIndex(
  macros: ReadonlyArray<{ examples: readonly string[] }>,
  canonicalize: Canonicalizer,
  lexemes: LexemeTable,
): MacroIndex {
  const patterns: Pattern[] = [];
  const postings = new Map<string, Postings>();
  const byWords = new Map<string, number>();
  const add = (key: string, pattern: number, position: number): void => {
    const list = postings.get(key);
    if (list === undefined) {
      postings.set(key, { patterns: [pattern], positions: [position] });
    } else if (list.patterns[list.patterns.length - 1] !== pattern || list.positions[list.positions.length - 1] !== position) {
      list.patterns.push(pattern);
      list.positions.push(position);
    }
  };
  macros.forEach((macro, m) => {
    macro.examples.forEach((example, e) => {
      const tokens = tokenize(example, canonicalize);
      if (tokens.length === 0) return;
      const canonKey = m + '\u0000' + tokens.map((t) => t.canon).join(' ');
      const core = example.slice(tokens[0].start, tokens[tokens.length - 1].end);
      const same = byWords.get(canonKey);
      if (same !== undefined) {
        // Same words as an earlier example of this macro: one pattern, several verbatim forms.
        patterns[same].cores.push(core);
        return;
      }
      const words = tokens.map((t) => {
        const lex = lexemes.get(t.canon);
        return { lex, weight: lex.stop ? STOP_WEIGHT : 1 };
      });
      const joined = words.map((w, i) => (i + 1 < words.length ? lexemes.get(w.lex.canon + words[i + 1].lex.canon) : null));
      let anchors = words.flatMap((w, i) => (w.lex.stop || w.lex.filler === 1 ? [] : [i]));
      if (anchors.length === 0) anchors = words.map((_, i) => i);
      // Every distinctive word must be heard recognisably, bar one in longer phrases.
      const minHits = anchors.length <= 2 ? anchors.length : anchors.length - 1;
      const id = patterns.length;
      byWords.set(canonKey, id);
      let anchorMask = 0;
      let numericAnchorMask = 0;
      for (const i of anchors) {
        anchorMask |= bitOf(i);
        if (words[i].lex.numeric) numericAnchorMask |= bitOf(i);
      }
      const weightSum = words.reduce((sum, w) => sum + w.weight, 0);
      patterns.push({ macro: m, example: e, words, joined, cores: [core], anchors, minHits, anchorMask, numericAnchorMask, weightSum });
      for (const i of anchors) {
        for (const key of blockingKeys(words[i].lex, true)) add(key, id, i);
        const pair = joined[i];
        if (pair !== null) for (const key of blockingKeys(pair, false)) add(key, id, i);
      }
    });
  });
  return { patterns, postings, lexemes };
}
