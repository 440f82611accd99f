/**
 * English number words read from a run of lower-case words, one position at a time: cardinals
 * ("one hundred and twenty five", "fifteen hundred", "two thousand five"), the clinical short form
 * ("one twenty" for 120, "one oh five" for 105), decimals ("ninety eight point six", the
 * recogniser's "two . five"), "and a half", years ("twenty twenty four") and ordinals. Which of
 * these readings a caller trusts, and what it writes, is decided by `numbers.ts` and its callers;
 * this module only knows how numbers are said.
 */

/** Digit words, including "oh" which is a zero only inside a number ("one oh five", "point oh five"). */
const DIGITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
};
const TEENS: Readonly<Record<string, number>> = {
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { thousand: 1000, million: 1_000_000 };
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15,
  sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
};
const ONES_SPELLED = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven',
  'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS_SPELLED = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Every single-word cardinal below a hundred, for patterns that look for a count ("two sentences"). */
export const NUMBER_WORDS: readonly string[] = [...Object.keys(DIGITS), ...Object.keys(TEENS), ...Object.keys(TENS)];

const own = (table: Readonly<Record<string, number>>, w: string | undefined): w is string =>
  w !== undefined && Object.prototype.hasOwnProperty.call(table, w);

/** Value of a digit word ("five" -> 5; "oh" -> 0 when `oh` is allowed), else undefined. */
export function digitValue(word: string | undefined, oh = false): number | undefined {
  if (own(DIGITS, word)) return DIGITS[word];
  if (oh && (word === 'oh' || word === 'o')) return 0;
  return undefined;
}

/** True for any English cardinal number word ("five", "fifteen", "ninety", "hundred", "thousand"). */
export function isNumberWord(word: string | undefined): boolean {
  return own(DIGITS, word) || own(TEENS, word) || own(TENS, word) || word === 'hundred' || own(SCALES, word);
}

/** True for a word that can only continue a number, never start a new one after a finished group. */
const isTensOrTeen = (w: string | undefined): boolean => own(TENS, w) || own(TEENS, w);

/** How {@link readNumberAt} reads. */
export interface ReadOptions {
  /** Read "point five" with no whole part as 0.5 (the caller has judged the context). */
  barePoint?: boolean;
  /** Read "twenty twenty four" as a year (default true); false reads 20, then 24. */
  years?: boolean;
  /**
   * Fold a disfluent repeat or false start into the number that follows: "six hundred six
   * hundred" is 600 and "ninety ninety seven" is 97, with `repeated` set. A single word said
   * twice ("two two") is not folded.
   */
  foldRepeats?: boolean;
}

/** A number read from words[start, next). */
export interface WordNumber {
  value: number;
  /** Written form: digits with the decimals as spoken ("98.6", "0.05", "120"). */
  text: string;
  /** Index of the first word after the number. */
  next: number;
  /** How it was said: plain cardinal, clinical short form, decimal, or year. */
  form: 'cardinal' | 'short' | 'decimal' | 'year' | 'digits';
  /** For decimals: the separator the speaker or recogniser used. */
  point?: 'point' | '.';
  /** A repeat or false start before it was folded in (with `foldRepeats`). */
  repeated?: boolean;
}

interface Part { value: number; next: number }

/** 1..99 at i: "seven", "fifteen", "forty", "forty two"; `tensOnlyBeforeTens` leaves a digit that starts a new short form. */
function belowHundred(w: readonly string[], i: number, tensOnlyBeforeTens = false): Part | null {
  const a = w[i];
  if (own(TEENS, a)) return { value: TEENS[a]!, next: i + 1 };
  if (own(TENS, a)) {
    const d = digitValue(w[i + 1]);
    // "one twenty one twenty eight": the "one" after "twenty" starts the restart, it is not 121.
    if (d !== undefined && d > 0 && !(tensOnlyBeforeTens && isTensOrTeen(w[i + 2]))) return { value: TENS[a]! + d, next: i + 2 };
    return { value: TENS[a]!, next: i + 1 };
  }
  const d = digitValue(a);
  return d === undefined ? null : { value: d, next: i + 1 };
}

/** 1..999 at i, including "a hundred", "fifteen hundred" and "twenty five hundred" (those reach 9900). */
function belowThousand(w: readonly string[], i: number): Part | null {
  let head = belowHundred(w, i);
  if (!head && (w[i] === 'a' || w[i] === 'an') && w[i + 1] === 'hundred') head = { value: 1, next: i + 1 };
  if (!head) return null;
  if (w[head.next] !== 'hundred' || head.value === 0) return head;
  let value = head.value * 100;
  let j = head.next + 1;
  const afterAnd = w[j] === 'and' ? j + 1 : j;
  const tail = belowHundred(w, afterAnd);
  // "six hundred six hundred": the second "six" belongs to the next number, not to 606.
  if (tail && w[tail.next] !== 'hundred') {
    value += tail.value;
    j = tail.next;
  }
  return { value, next: j };
}

/** A plain cardinal at i: up to millions, "two thousand and five", "a thousand". */
function cardinal(w: readonly string[], i: number): Part | null {
  let total = 0;
  let j = i;
  let any = false;
  let lastScale = Infinity;
  for (;;) {
    let group = belowThousand(w, j);
    if (!group && (w[j] === 'a' || w[j] === 'an') && own(SCALES, w[j + 1]) && !any) group = { value: 1, next: j + 1 };
    if (!group) break;
    const scaleWord = w[group.next];
    if (own(SCALES, scaleWord) && SCALES[scaleWord]! < lastScale) {
      total += group.value * SCALES[scaleWord]!;
      lastScale = SCALES[scaleWord]!;
      any = true;
      j = group.next + 1;
      if (w[j] === 'and' && belowThousand(w, j + 1)) j++;
      continue;
    }
    // "two thousand two thousand": the second group starts the next number.
    if (any && own(SCALES, scaleWord)) break;
    total += group.value;
    j = group.next;
    any = true;
    break;
  }
  return any ? { value: total, next: j } : null;
}

/**
 * Reads the number said at `words[i]`, or null when none starts there. Words are lower-case;
 * a "." word is the recogniser's spoken decimal point ("two . five") only when a digit word follows
 * and no bigger number word comes after it. Digit tokens ("120", "2.5") read as themselves.
 * A decimal with no whole part ("point five") is read only with `barePoint`, because "at this
 * point five patients" is not 0.5. Adjacent numbers are not joined here beyond what English
 * allows; callers decide about repeats.
 */
export function readNumberAt(words: readonly string[], i: number, opts: ReadOptions = {}): WordNumber | null {
  if (!opts.foldRepeats) return readOne(words, i, opts);
  const repeated = repeatedPhrase(words, i, opts);
  let n = repeated?.n ?? readOne(words, i, opts);
  let lastStart = repeated?.lastStart ?? i;
  if (!n) return null;
  for (;;) {
    const again = readOne(words, n.next, opts);
    if (!again) return n;
    const said = words.slice(lastStart, n.next);
    // One word said twice ("two two", "twenty twenty") may be meant: only longer repeats and
    // restarts that go on ("ninety ninety seven") are folded.
    const restart = (said.length > 1 || again.next - n.next > 1) && said.every((w, k) => words[n!.next + k] === w);
    if (!restart) return n;
    lastStart = n.next;
    n = { ...again, repeated: true };
  }
}

const NUMBER_RUN_WORD = /^(and|a|an|oh|point|\.)$/;

/**
 * A number phrase said twice in a row ("nine thousand nine hundred ninety nine thousand nine
 * hundred ninety"), found before parsing: read left to right the second "nine" would otherwise be
 * taken as the tail of the first number.
 */
function repeatedPhrase(words: readonly string[], i: number, opts: ReadOptions): { n: WordNumber; lastStart: number } | null {
  let run = i;
  while (run < words.length && (isNumberWord(words[run]) || NUMBER_RUN_WORD.test(words[run]!))) run++;
  for (let len = Math.floor((run - i) / 2); len >= 2; len--) {
    if (!words.slice(i, i + len).every((w, k) => words[i + len + k] === w)) continue;
    const first = readOne(words.slice(i, i + len), 0, opts);
    // The second saying may go on: "one twenty one twenty eight" is a restart into 128.
    const second = first && first.next === len ? readOne(words, i + len, opts) : null;
    if (second && second.next >= i + 2 * len) return { n: { ...second, repeated: true }, lastStart: i + len };
  }
  return null;
}

function readOne(words: readonly string[], i: number, opts: ReadOptions): WordNumber | null {
  const first = words[i];
  if (first !== undefined && /^\d+(?:\.\d+)?$/.test(first)) {
    return { value: Number(first), text: first, next: i + 1, form: 'digits' };
  }
  let whole: Part | null = cardinal(words, i);
  let form: WordNumber['form'] = 'cardinal';
  if (whole && whole.next === i + 1 && own(DIGITS, first) && whole.value > 0) {
    // Clinical short form: a digit then a two-digit group, "one twenty" (120), "one oh five" (105).
    const oh = digitValue(words[i + 1], true) === 0 && words[i + 1] !== 'zero' ? digitValue(words[i + 2]) : undefined;
    const rest = oh !== undefined ? { value: oh, next: i + 3 } : isTensOrTeen(words[i + 1]) ? belowHundred(words, i + 1, true) : null;
    if (rest && words[rest.next] !== 'hundred' && !own(SCALES, words[rest.next])) {
      whole = { value: whole.value * 100 + rest.value, next: rest.next };
      form = 'short';
    }
  } else if (whole && whole.next === i + 1 && (whole.value === 19 || whole.value === 20) && opts.years !== false) {
    // Years: "nineteen eighty", "twenty twenty four", "twenty oh five".
    const oh = (words[i + 1] === 'oh' || words[i + 1] === 'o') ? digitValue(words[i + 2]) : undefined;
    const rest = oh !== undefined ? { value: oh, next: i + 3 } : isTensOrTeen(words[i + 1]) ? belowHundred(words, i + 1) : null;
    if (rest && words[rest.next] !== 'hundred' && !own(SCALES, words[rest.next])) {
      whole = { value: whole.value * 100 + rest.value, next: rest.next };
      form = 'year';
    }
  }
  const pointAt = whole ? whole.next : i;
  const sep = words[pointAt];
  if (form !== 'year' && ((sep === 'point' && (whole || opts.barePoint)) || (sep === '.' && whole))) {
    const digits: number[] = [];
    let k = pointAt + 1;
    for (let d = digitValue(words[k], true); d !== undefined; d = digitValue(words[++k], true)) digits.push(d);
    // "two . twenty" or "two . five hundred" is a sentence break between numbers, not 2.5.
    const spoiled = words[k] === 'hundred' || own(SCALES, words[k]) || isTensOrTeen(words[k]) || digitValue(words[pointAt + 1]) === undefined;
    if (digits.length > 0 && !(sep === '.' && spoiled)) {
      const text = `${whole ? whole.value : 0}.${digits.join('')}`;
      return { value: Number(text), text, next: k, form: 'decimal', point: sep };
    }
  }
  if (!whole) return null;
  // "one and a half" -> 1.5
  if (words[whole.next] === 'and' && words[whole.next + 1] === 'a' && words[whole.next + 2] === 'half' && form !== 'year') {
    const value = whole.value + 0.5;
    return { value, text: String(value), next: whole.next + 3, form: 'decimal' };
  }
  return { value: whole.value, text: String(whole.value), next: whole.next, form };
}

/**
 * Parses a whole phrase of number words ("one hundred and twenty five", "one twenty", "ninety
 * eight point six"); undefined when the phrase is not exactly one number.
 */
export function parseNumberWords(phrase: string): number | undefined {
  const words = phrase.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter(Boolean);
  const n = readNumberAt(words, 0);
  return n && n.next === words.length ? n.value : undefined;
}

/** Ordinal at i: "third", "twenty first", "21st"; null otherwise. */
export function readOrdinalAt(words: readonly string[], i: number): { value: number; next: number } | null {
  const w = words[i];
  if (w === undefined) return null;
  if (own(ORDINALS, w)) return { value: ORDINALS[w]!, next: i + 1 };
  const m = /^(\d{1,2})(st|nd|rd|th)$/.exec(w);
  if (m) return { value: Number(m[1]), next: i + 1 };
  const next = words[i + 1];
  if (own(TENS, w) && own(ORDINALS, next) && ORDINALS[next]! < 10) return { value: TENS[w]! + ORDINALS[next]!, next: i + 2 };
  return null;
}

/** Year at i: "twenty twenty four", "nineteen eighty", "two thousand five", "2024"; null otherwise. */
export function readYearAt(words: readonly string[], i: number): { value: number; next: number } | null {
  const n = readNumberAt(words, i);
  if (!n || n.form === 'decimal' || n.form === 'short') return null;
  const value = n.value;
  return n.form === 'year' || (value >= 1000 && value <= 2999 && Number.isInteger(value)) ? { value, next: n.next } : null;
}

/** Spells a non-negative integer in English words ("120" -> "one hundred twenty"). */
export function numberToWords(n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`not a non-negative integer: ${n}`);
  if (n < 20) return ONES_SPELLED[n]!;
  if (n < 100) return TENS_SPELLED[Math.floor(n / 10)]! + (n % 10 ? ` ${ONES_SPELLED[n % 10]}` : '');
  if (n < 1000) return `${ONES_SPELLED[Math.floor(n / 100)]} hundred${n % 100 ? ` ${numberToWords(n % 100)}` : ''}`;
  if (n < 1_000_000) return `${numberToWords(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${numberToWords(n % 1000)}` : ''}`;
  return String(n).split('').map((d) => ONES_SPELLED[Number(d)]).join(' ');
}

/** Spells a written number digit by digit after the point ("1.5" -> "one point five"). */
export function spellNumber(token: string): string {
  const [int, frac] = token.split('.');
  const intWords = int!.length > 6 ? int!.split('').map((d) => ONES_SPELLED[Number(d)]).join(' ') : numberToWords(Number(int));
  return frac ? `${intWords} point ${frac.split('').map((d) => ONES_SPELLED[Number(d)]).join(' ')}` : intWords;
}
