/**
 * Whether a detected macro may be expanded where it was said. A macro stands for a whole finding
 * ("normal cardiac exam" -> the normal heart exam); said inside a negation ("this was not a
 * normal cardiac exam") or followed by an exception ("normal cardiac exam except for a murmur")
 * its expansion would state the opposite of what was dictated. Such a phrase is left as spoken
 * and the reason reported. An exception does not expand the positive part either: the expansion
 * is one text ("… no murmurs, rubs or gallops") and cannot be split safely by its meaning.
 *
 * Negation scope is the clinical-language core's (`contextOf`); the exception words are its
 * `EXCEPTION_TRIGGERS` data. Only a trigger close to the phrase counts (a few words, no comma or
 * clause break between), because a list negation ("denies chest pain, normal cardiac exam")
 * does not reach a finding stated after the list. Words inside another detected macro belong to
 * that macro ("no peripheral edema estimated blood loss minimal" negates nothing after it).
 */
import { contextOf } from '../clinical-language/context.js';
import { CONTEXT_TRIGGERS, EXCEPTION_TRIGGERS } from '../clinical-language/context-triggers.js';
import { alternation } from '../clinical-language/phrase-match.js';

/** Why a phrase that matched a macro was not expanded. */
export type SkipReason = 'negated' | 'exception' | 'trigger_required';

/** A matched phrase that stays as spoken, and the words that decided it (code-unit offsets). */
export interface ContextSkip {
  reason: 'negated' | 'exception';
  trigger: { start: number; end: number };
}

/** Most words allowed between a negation or exception and the macro phrase. */
const NEAR_WORDS = 3;
/** How far after the phrase an exception is looked for (code units). */
const LOOK_AHEAD = 120;
const BREAK = /[,;:.!?\n()[\]]/;
const EXCEPTION_RE = alternation(EXCEPTION_TRIGGERS);
const NEGATION_RE = alternation(CONTEXT_TRIGGERS.filter((t) => t.category === 'negated').map((t) => t.phrase));
const wordCount = (s: string): number => (s.match(/[\p{L}\p{N}']+/gu) ?? []).length;
const near = (between: string, breaks: RegExp): boolean => !breaks.test(between) && wordCount(between) <= NEAR_WORDS;

/**
 * True when a macro states a negative finding itself ("no acute distress", "denies chest pain"):
 * a negation before it is then an echo or a stutter of its own ("no, uh, no acute distress"),
 * not a reversal, so such a macro is never held back as negated.
 */
export function isNegativeStatement(examples: readonly string[]): boolean {
  return examples.some((e) => {
    NEGATION_RE.lastIndex = 0;
    return NEGATION_RE.test(e);
  });
}

/**
 * The reason the phrase at `[start, end)` of `text` must not be expanded, if any. `others` are
 * the spans of the other macros detected in the text; `negative` says the macro is a negative
 * statement ({@link isNegativeStatement}).
 */
export function contextSkip(text: string, start: number, end: number, others: readonly { start: number; end: number }[] = [], negative = false): ContextSkip | undefined {
  const outside = (t: { start: number; end: number }): boolean => !others.some((o) => t.start < o.end && o.start < t.end);
  const negation = negative ? undefined : contextOf(text, start, end).triggers.find(
    (t) => t.category === 'negated' && outside(t) && (t.end <= start ? near(text.slice(t.end, start), BREAK) : near(text.slice(end, t.start), BREAK)),
  );
  if (negation) return { reason: 'negated', trigger: { start: negation.start, end: negation.end } };
  const after = text.slice(end, end + LOOK_AHEAD);
  EXCEPTION_RE.lastIndex = 0;
  const m = EXCEPTION_RE.exec(after);
  // A comma may stand before the exception ("normal cardiac exam, except for a murmur").
  if (m && outside({ start: end + m.index, end: end + m.index + m[0].length }) && near(after.slice(0, m.index).replace(/^\s*,/, ''), BREAK)) {
    return { reason: 'exception', trigger: { start: end + m.index, end: end + m.index + m[0].length } };
  }
  return undefined;
}
