import { editDistance } from '../clinical-language/edit-distance.js';

/** Words for scoring: lower case, letters and apostrophes (speaker labels in brackets dropped). */
export function scoringWords(text: string): string[] {
  return text.replace(/\[[^\]]*\]/g, ' ').toLowerCase().replace(/[^a-z']+/g, ' ').trim().split(' ').filter(Boolean);
}

/** Word errors of `hypothesis` against `reference` and the reference's length. */
export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = scoringWords(reference);
  return { errors: editDistance(ref, scoringWords(hypothesis), { transpositions: false }), words: ref.length };
}
