/**
 * Competition between overlapping candidates, and the answer's offsets and expanded text.
 *
 * Rule: candidates are ranked by confidence plus COMPETITION_WORD_BONUS for every example word
 * they matched, so a longer macro that contains a shorter one ("normal chest exam" over "chest
 * exam") wins unless it is clearly less certain; ties go to the earlier start, then to the
 * macro listed first in the request, then to its earlier example. Winners are taken greedily in
 * rank order; a candidate that overlaps an accepted one is dropped.
 */
import { joinExpansion } from '../../../shared/macros/join-expansion.js';
import type { Candidate } from './detect.js';

/** Rank bonus per matched example word when candidates overlap. */
export const COMPETITION_WORD_BONUS = 0.15;

/** Non-overlapping winners, in text order. */
export function resolveOverlaps(candidates: Candidate[], minConfidence: number): Candidate[] {
  const eligible = candidates.filter((c) => c.confidence >= minConfidence && c.end > c.start);
  const rank = (c: Candidate): number => c.confidence + COMPETITION_WORD_BONUS * c.words;
  eligible.sort((a, b) => rank(b) - rank(a) || a.start - b.start || a.macro - b.macro || a.example - b.example);
  const accepted: Candidate[] = [];
  for (const c of eligible) {
    if (!accepted.some((w) => c.start < w.end && w.start < c.end)) accepted.push(c);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

/**
 * The text with each winner's span replaced by its expansion. Everything else is unchanged, but
 * for a punctuation mark right after a span that the expansion already ends with: one mark is
 * kept, not two (shared/macros/join-expansion.ts).
 */
export function expand(text: string, winners: Candidate[], expansionOf: (c: Candidate) => string): string {
  let out = '';
  let at = 0;
  winners.forEach((w, i) => {
    const until = winners[i + 1]?.start ?? text.length;
    const joined = joinExpansion(expansionOf(w), text.slice(w.end, until));
    out += text.slice(at, w.start) + joined.expansion;
    at = w.end + joined.skip;
  });
  return out + text.slice(at);
}
