/**
 * How a macro's expansion meets the dictated text after it. Expansions are usually whole
 * sentences ending in a mark ("CHEST: Clear to auscultation bilaterally."), and the recogniser
 * often puts the speaker's own mark right after the spoken phrase ("normal chest exam."), so a
 * plain splice gives "bilaterally..". The local API (expanded_text) and the renderer (pieces the
 * user can undo) apply this one rule, so both show the same text.
 */

/**
 * Strength of the marks that can meet: a pause, a full stop, a question or exclamation. Full-width
 * forms count as their ASCII twins (Chinese dictation). Semicolons and colons are left alone: an
 * expansion ending in ':' introduces what follows, and is not a sentence end to merge.
 */
const RANK: Record<string, number> = { ',': 1, '，': 1, '.': 2, '。': 2, '?': 3, '？': 3, '!': 3, '！': 3 };

// One mark after optional spaces, not part of an ellipsis or a run of marks ("?!"), and not a
// decimal point (".5").
const FOLLOWING_MARK = /^[ \t]*([,，.。?？!！])(?![,，.。?？!！\p{N}])/u;

/**
 * Joins `expansion` to the text that follows it. When the expansion ends in a mark and the
 * following text starts with one, one mark is kept, the stronger of the two (a period over a
 * comma, a question or exclamation mark over a period); on a tie the expansion's own. Returns the
 * expansion to show and how many UTF-16 code units to drop from the start of `following`.
 * An expansion without final punctuation, or text that does not start with a mark, is unchanged.
 */
export function joinExpansion(expansion: string, following: string): { expansion: string; skip: number } {
  const body = expansion.trimEnd();
  const own = RANK[body.slice(-1)];
  const match = own === undefined ? null : FOLLOWING_MARK.exec(following);
  if (own === undefined || match === null) return { expansion, skip: 0 };
  const theirs = RANK[match[1]!]!;
  if (theirs <= own) return { expansion, skip: match[0].length };
  // The dictated mark is stronger: it replaces the expansion's (all of a run such as "..."),
  // right where the expansion's words end.
  return { expansion: body.replace(/[,，.。?？!！]+$/u, ''), skip: match[0].length - match[1]!.length };
}
