/**
 * The share of a transcript's words the recogniser was unsure of (issue 27): kept with the visit's
 * transcript, sent with the note request, and above `UNSURE_SHARE_WARNING` said to the physician
 * before a note is generated and in the note's review list. One threshold for the interface and
 * the API, so what the Notes page warns about is what the note's review list says.
 */

/**
 * From this share of unsure words (0.3: three words in ten) a transcript is "mostly unsure" for
 * the purpose of warning: at that rate most sentences hold a word that may be another word, so a
 * note written from it can state with confidence what was never said.
 */
export const UNSURE_SHARE_WARNING = 0.3;

/** Whether a share (0..1, or absent when unknown) calls for the warning. */
export function mostlyUnsure(share: number | null | undefined): boolean {
  return typeof share === 'number' && share >= UNSURE_SHARE_WARNING;
}

/** The share rounded to a whole percent for people ("42%"). */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** Words of a text, counted as a reader counts them (runs between spaces). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** `unsure` of `total` words as a share in 0..1, to 4 decimals (so its whole percent is the true one); null when there are no words. */
export function unsureShare(unsure: number, total: number): number | null {
  if (total <= 0) return null;
  return Math.round(Math.min(1, Math.max(0, unsure / total)) * 10_000) / 10_000;
}
