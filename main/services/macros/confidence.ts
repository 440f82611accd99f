/**
 * Turns what an alignment saw into a confidence in [0, 1] and finds spoken trigger words around
 * a phrase. The scale is designed to be thresholded:
 * - 1.00 the example verbatim; 0.99 differing only in case; 0.97 the same words with other
 *   punctuation, hyphenation or British/American spelling;
 * - below that, each kind of noise costs a documented amount (misspelt or misheard words in
 *   proportion to how far they are from the example, fillers, a sentence break inside);
 * - noisy matches that rest on little exact evidence (one short word, or no word heard exactly)
 *   pay extra, because those are where ordinary sentences get mistaken for macros;
 * - a spoken trigger ("insert ...") next to a noisy match waives the thin-evidence penalties
 *   and adds a little: the clinician asked for a macro.
 * docs/macros.md shows how often detections at each level were right on the labelled set.
 */
import type { Alignment, TextView } from './align.js';
import type { Pattern } from './macro-index.js';
import { Gap } from './tokenize.js';
import { LEADING_TRIGGERS, TRAILING_TRIGGERS } from './lexicon.js';

export const CONFIDENCE = {
  verbatim: 1,
  caseOnly: 0.99,
  sameWords: 0.97,
  /** Multiplies the weighted share of dissimilarity of the example's words. */
  wordNoise: 1.6,
  hardFiller: 0.04,
  softFiller: 0.1,
  repeat: 0.05,
  merge: 0.02,
  sentenceGap: 0.4,
  lineGap: 0.6,
  /** A noisy match with no example word heard exactly. */
  noExactWord: 0.3,
  /** A noisy match of a phrase of at most two distinctive words, only one of them exact. */
  thinEvidence: 0.12,
  /** Added when a trigger word precedes or follows; the evidence penalties above are then waived. */
  trigger: 0.05,
} as const;

/** Confidence of one alignment; `surface` is the text from its first to its last word. */
export function confidenceOf(a: Alignment, pattern: Pattern, surface: string, triggered: boolean): number {
  const clean = a.hardFillers + a.softFillers + a.repeats === 0 && a.sentenceGaps + a.lineGaps === 0;
  const allExact = a.similarities.every((s) => s === 1);
  if (clean && allExact) {
    if (pattern.cores.includes(surface)) return CONFIDENCE.verbatim;
    const lower = surface.toLowerCase();
    if (pattern.cores.some((c) => c.toLowerCase() === lower)) return CONFIDENCE.caseOnly;
    return CONFIDENCE.sameWords;
  }
  let weightSum = 0;
  let noise = 0;
  let exactContent = 0;
  let content = 0;
  pattern.words.forEach((w, i) => {
    weightSum += w.weight;
    noise += w.weight * (1 - a.similarities[i]);
    if (!w.lex.stop) {
      content += 1;
      if (a.similarities[i] === 1) exactContent += 1;
    }
  });
  let c = CONFIDENCE.sameWords;
  c -= CONFIDENCE.wordNoise * (noise / weightSum);
  c -= CONFIDENCE.hardFiller * a.hardFillers + CONFIDENCE.softFiller * a.softFillers + CONFIDENCE.repeat * a.repeats;
  c -= CONFIDENCE.merge * a.merges;
  c -= CONFIDENCE.sentenceGap * a.sentenceGaps + CONFIDENCE.lineGap * a.lineGaps;
  // A spoken trigger is the evidence a short or thoroughly misheard phrase lacks.
  if (triggered) c += CONFIDENCE.trigger;
  else if (!allExact) {
    if (exactContent === 0) c -= CONFIDENCE.noExactWord;
    else if (exactContent === 1 && content <= 2) c -= CONFIDENCE.thinEvidence;
  }
  return round(Math.min(CONFIDENCE.sameWords, Math.max(0, c)));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * Extends a phrase over a spoken trigger before it ("insert", "dot phrase", optionally
 * followed by a filler) and "macro"/"template" after it. Only across spaces or soft
 * punctuation: a trigger in the previous sentence is not part of this request.
 */
export function absorbTriggers(view: TextView, first: number, last: number): { first: number; last: number; triggered: boolean } {
  const toks = view.tokens;
  const lex = view.lexemes;
  let triggered = false;
  let k = first;
  if (k > 0 && lex[k - 1].filler === 1 && toks[k].gap <= Gap.Soft) k -= 1;
  let newFirst = first;
  for (const seq of LEADING_TRIGGERS) {
    const start = k - seq.length;
    if (start < 0 || toks[k].gap > Gap.Soft) continue;
    let ok = true;
    for (let q = 0; q < seq.length && ok; q++) {
      ok = lex[start + q].canon === seq[q] && (q === 0 || toks[start + q].gap <= Gap.Soft);
    }
    if (ok) {
      newFirst = start;
      triggered = true;
      break;
    }
  }
  let newLast = last;
  if (last + 1 < toks.length && TRAILING_TRIGGERS.has(lex[last + 1].canon) && toks[last + 1].gap <= Gap.Soft) {
    newLast = last + 1;
    triggered = true;
  }
  return { first: newFirst, last: newLast, triggered };
}
