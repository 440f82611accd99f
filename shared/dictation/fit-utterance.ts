/**
 * How a dictated utterance fits the text around the place it is written: spaces on each side,
 * capitalisation, and a full stop when the recogniser gave none. Pure code, used by the
 * renderer's dictation document.
 *
 * The recogniser (with dictation formatting) capitalises the start of every utterance and writes
 * the marks the speaker said, nothing more. An utterance ends at a pause, and a pause in
 * dictation nearly always ends a sentence, so:
 * - a full stop is added when the utterance ends without a mark and what follows the insertion
 *   point is nothing, a line break or a new sentence (never in the middle of a sentence), unless
 *   it ends in a word that cannot end an English sentence ("the exam was not" (pause) "a normal
 *   exam", "seen by" (pause) "cap smith");
 * - the first letter is a capital after a sentence end, a line break or at the start; elsewhere
 *   (after "pain," or inside a sentence the physician clicked into) a first word the recogniser
 *   capitalised only for being first ("Shortness") goes back to lower case. A word with more
 *   capitals ("COPD", "McBurney") or "I" keeps its case. A proper name dictated after a comma
 *   ("Tylenol") loses its capital: say "cap tylenol" for it.
 */

/** Text that ends a sentence: a final mark (optionally closed by a quote or bracket) or a line break. */
const SENTENCE_END = /(?:[.?!。？！]["'”’)\]]*|\n)\s*$/u;
/** Marks that stick to the word before them: no space in front. */
const CLOSING = /^[.,;:?!)\]}。，；：？！%]/u;
/** Words after which an English sentence goes on: articles, prepositions, conjunctions, auxiliaries, "not". */
const CONTINUES = new Set(('a an the and or but nor of to in on at by for with from into onto than as not no ' +
  'is are was were be been being has have had do does did will would shall should can could may might must ' +
  'his her their its our your my this that these those very if because while whereas which who whom whose').split(' '));
/** A final mark the speaker gave (or a line break, or a colon that introduces what follows). */
const ENDS_MARKED = /[.?!,;:。？！，；：]["'”’)\]]*$|\n$/u;

/** What to write, with the separators it needs, for an utterance inserted between `before` and `after`. */
export interface FittedUtterance {
  /** The utterance as written (its capitalisation and full stop settled). */
  text: string;
  /** A space to put before it ('' when none is needed). */
  lead: string;
  /** A space to put after it ('' when none is needed). */
  trail: string;
  /** True when the full stop at its end was added here, not said. */
  stopped: boolean;
}

/** True when `text` written after `before` starts a sentence. */
export function startsSentence(before: string): boolean {
  return before.trim() === '' || SENTENCE_END.test(before);
}

function settleCase(text: string, sentenceStart: boolean): string {
  const m = /^(\s*)(\p{L}[\p{L}'’-]*)/u.exec(text);
  if (!m) return text;
  const [, space, word] = m;
  let fixed = word!;
  if (sentenceStart) fixed = word!.charAt(0).toUpperCase() + word!.slice(1);
  // Only a word capitalised for being first: one capital, then lower case letters.
  else if (/^\p{Lu}[\p{Ll}'’-]*$/u.test(word!) && !/^I(['’]\p{Ll}+)?$/u.test(word!)) fixed = word!.charAt(0).toLowerCase() + word!.slice(1);
  return space + fixed + text.slice(m[0].length);
}

/**
 * Settles an utterance for the place it goes. `punctuate` adds the full stop (dictation
 * formatting on); case is settled either way, spaces always.
 * @example fitUtterance('Shortness of breath', 'Chest pain,', '', { punctuate: true }) // { text: 'shortness of breath.', lead: ' ', trail: '' }
 */
export function fitUtterance(text: string, before: string, after: string, opts: { punctuate: boolean; capitalise?: boolean }): FittedUtterance {
  if (/^\n+$/.test(text)) return { text, lead: '', trail: '', stopped: false };
  let body = text.trim();
  if (!body) return { text: '', lead: '', trail: '', stopped: false };
  if (opts.capitalise !== false) body = settleCase(body, startsSentence(before));
  const rest = after.replace(/^[ \t]+/, '');
  const sentenceFollows = rest === '' || rest.startsWith('\n') || /^\p{Lu}/u.test(rest);
  const lastWord = /([\p{L}']+)$/u.exec(body)?.[1]?.toLowerCase() ?? '';
  const stopped = opts.punctuate && sentenceFollows && !ENDS_MARKED.test(body) && /[\p{L}\p{N})\]%°]$/u.test(body) && !CONTINUES.has(lastWord);
  if (stopped) body += '.';
  const lead = before === '' || /\s$/.test(before) || CLOSING.test(body) ? '' : ' ';
  const trail = after === '' || /^\s/.test(after) || CLOSING.test(after) ? '' : ' ';
  return { text: body, lead, trail, stopped };
}
