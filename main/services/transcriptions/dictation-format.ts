/**
 * Dictation formatting: turns a recogniser's raw lower-case word stream into the text a physician
 * expects to see. Pure functions, no I/O.
 *
 * What it does, in order, over the recognised words:
 * - spoken punctuation and commands: "comma", "period" / "full stop", "question mark",
 *   "exclamation point|mark", "colon", "semicolon", "new line", "new paragraph" (also "next
 *   paragraph"), "open|close paren(thesis)", "slash";
 * - "period" and "colon" stay words where they are nouns ("last menstrual period", "the
 *   sigmoid colon"), judged from the word before them;
 * - numbers to digits: cardinals ("one hundred twenty" -> 120), the clinical short form
 *   ("one twenty" -> 120, "one oh five" -> 105), decimals ("ninety eight point six" -> 98.6);
 *   a lone "one".."nine" stays a word unless a unit, "over" or "percent" follows;
 * - readings: "one twenty over eighty" -> "120/80";
 * - units after a number: "five milligrams" -> "5 mg", "ninety eight point six degrees" ->
 *   "98.6 °F", "ninety eight percent" -> "98%", "seventy two beats per minute" -> "72 bpm";
 * - dates: "march third twenty twenty four" -> "March 3, 2024";
 * - capitalisation of sentences (start, after . ? ! and line breaks) and of "I".
 *
 * `punctuateWords` applies the same rules to timed words and returns one entry per *output*
 * token: words that a rule merged ("one", "twenty", "over", "eighty") become one entry spanning
 * their times, whose `word` is the raw words joined by spaces; spoken commands are not entries of
 * their own but are appended to the previous entry's `punctuated_word`.
 */
import type { RecognizedWord } from './ports.js';

/** A timed word with its display form (capitalised, punctuated, numbers as digits). */
export type PunctuatedWord = RecognizedWord & { punctuated_word: string };

const UNITS: Record<string, number> = {
  zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15,
  sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
};
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
  'september', 'october', 'november', 'december'];

/** Spoken commands, longest first so "new paragraph" wins over a lone "new". */
const COMMANDS: Array<{ words: string[]; out: string }> = [
  { words: ['exclamation', 'point'], out: '!' },
  { words: ['exclamation', 'mark'], out: '!' },
  { words: ['question', 'mark'], out: '?' },
  { words: ['new', 'paragraph'], out: '\n\n' },
  { words: ['next', 'paragraph'], out: '\n\n' },
  { words: ['new', 'line'], out: '\n' },
  { words: ['next', 'line'], out: '\n' },
  { words: ['full', 'stop'], out: '.' },
  { words: ['open', 'parenthesis'], out: '(' },
  { words: ['close', 'parenthesis'], out: ')' },
  { words: ['open', 'paren'], out: '(' },
  { words: ['close', 'paren'], out: ')' },
  { words: ['period'], out: '.' },
  { words: ['comma'], out: ',' },
  { words: ['colon'], out: ':' },
  { words: ['semicolon'], out: ';' },
  { words: ['slash'], out: '/' },
];
/** Words before "period" / "colon" that make them nouns rather than punctuation. */
const PERIOD_NOUN_BEFORE = new Set(['menstrual', 'the', 'a', 'this', 'that', 'postoperative',
  'postpartum', 'refractory', 'incubation', 'waiting', 'trial', 'grace', 'her', 'his', 'same', 'short', 'long']);
const COLON_NOUN_BEFORE = new Set(['the', 'a', 'sigmoid', 'ascending', 'descending', 'transverse',
  'her', 'his', 'their', 'your', 'of', 'entire', 'distal', 'proximal', 'right', 'left', 'spastic']);

/** Units, longest phrases first. `space` is false for units written against the number. */
const UNIT_PHRASES: Array<{ words: string[]; out: string; space: boolean }> = [
  { words: ['millimeters', 'of', 'mercury'], out: 'mmHg', space: true },
  { words: ['milligrams', 'per', 'kilogram'], out: 'mg/kg', space: true },
  { words: ['beats', 'per', 'minute'], out: 'bpm', space: true },
  { words: ['breaths', 'per', 'minute'], out: 'breaths/min', space: true },
  { words: ['international', 'units'], out: 'IU', space: true },
  { words: ['degrees', 'fahrenheit'], out: '°F', space: true },
  { words: ['degrees', 'celsius'], out: '°C', space: true },
  { words: ['degrees', 'centigrade'], out: '°C', space: true },
  { words: ['percent'], out: '%', space: false },
  ...unitForms(['milligram'], 'mg'),
  ...unitForms(['microgram', 'mcg'], 'mcg'),
  ...unitForms(['gram'], 'g'),
  ...unitForms(['kilogram', 'kilo'], 'kg'),
  ...unitForms(['milliliter', 'millilitre', 'cc'], 'mL'),
  ...unitForms(['liter', 'litre'], 'L'),
  ...unitForms(['milliequivalent'], 'mEq'),
  ...unitForms(['millimeter', 'millimetre'], 'mm'),
  ...unitForms(['centimeter', 'centimetre'], 'cm'),
  ...unitForms(['pound'], 'lb'),
  ...unitForms(['inch'], 'in'),
];

function unitForms(singulars: string[], out: string): Array<{ words: string[]; out: string; space: boolean }> {
  return singulars.flatMap((s) => [
    { words: [s.endsWith('ch') ? `${s}es` : `${s}s`], out, space: true },
    { words: [s], out, space: true },
  ]);
}

/** One output token and the span of input words [from, to) it came from. */
interface Token {
  text: string;
  /** `word` is spaced from its neighbours; `punct` sticks to the left; `open` sticks to the right; `break` is a line break. */
  kind: 'word' | 'punct' | 'open' | 'break';
  from: number;
  to: number;
}

const norm = (w: string): string => w.toLowerCase().replace(/[^a-z0-9'.%-]/g, '').replace(/\.$/, '');

function matchAt(words: string[], i: number, phrase: string[]): boolean {
  return phrase.every((p, k) => words[i + k] === p);
}

interface NumberMatch { value: number; text: string; next: number; words: number }

/** Cardinal number at `i` ("one hundred twenty three", "two thousand five", "forty"). */
function parseCardinal(words: string[], i: number): NumberMatch | null {
  let total = 0;
  let current = 0;
  let j = i;
  let used = false;
  let lastWasUnit = false;
  let lastWasTens = false;
  while (j < words.length) {
    const w = words[j]!;
    if (/^\d+$/.test(w) && !used) {
      current = Number(w);
      used = true;
      j++;
      break;
    }
    if (w in UNITS && w !== 'oh') {
      if (lastWasUnit || (lastWasTens && UNITS[w]! >= 10)) break;
      current += UNITS[w]!;
      lastWasUnit = true;
    } else if (w in TENS) {
      if (lastWasUnit || lastWasTens || current % 100 !== 0) break;
      current += TENS[w]!;
      lastWasTens = true;
      j++;
      used = true;
      continue;
    } else if (w === 'hundred' && used && current > 0 && current < 100) {
      current *= 100;
      lastWasUnit = false;
    } else if (w === 'thousand' && used) {
      total += Math.max(current, 1) * 1000;
      current = 0;
      lastWasUnit = false;
    } else if (w === 'and' && used && current >= 100 && (words[j + 1]! in UNITS || words[j + 1]! in TENS)) {
      j++;
      continue;
    } else break;
    lastWasTens = false;
    used = true;
    j++;
  }
  if (!used) return null;
  const value = total + current;
  return { value, text: String(value), next: j, words: j - i };
}

/** Number at `i` including the clinical short form ("one twenty") and decimals ("point six"). */
function parseNumber(words: string[], i: number): NumberMatch | null {
  const first = parseCardinal(words, i);
  if (!first) return null;
  let { value, next } = first;
  // "one twenty" / "one oh five": a single digit then a two-digit group reads as hundreds.
  if (first.words === 1 && value >= 1 && value <= 9 && next < words.length) {
    const w = words[next]!;
    if (w === 'oh' && words[next + 1]! in UNITS && UNITS[words[next + 1]!]! < 10) {
      value = value * 100 + UNITS[words[next + 1]!]!;
      next += 2;
    } else if (w in TENS || (w in UNITS && UNITS[w]! >= 10)) {
      const rest = parseCardinal(words, next);
      if (rest && rest.value < 100) {
        value = value * 100 + rest.value;
        next = rest.next;
      }
    }
  }
  let text = String(value);
  if (words[next] === 'point' && next + 1 < words.length && words[next + 1]! in UNITS) {
    let digits = '';
    let k = next + 1;
    while (k < words.length && words[k]! in UNITS && UNITS[words[k]!]! < 10) digits += String(UNITS[words[k++]!]);
    if (digits) {
      text = `${text}.${digits}`;
      next = k;
    }
  }
  return { value, text, next, words: next - i };
}

function parseOrdinal(words: string[], i: number): { value: number; next: number } | null {
  const w = words[i];
  if (w === undefined) return null;
  if (w in ORDINALS) return { value: ORDINALS[w]!, next: i + 1 };
  const m = /^(\d{1,2})(st|nd|rd|th)$/.exec(w);
  if (m) return { value: Number(m[1]), next: i + 1 };
  if ((w === 'twenty' || w === 'thirty') && words[i + 1]! in ORDINALS && ORDINALS[words[i + 1]!]! < 10) {
    return { value: TENS[w]! + ORDINALS[words[i + 1]!]!, next: i + 2 };
  }
  return null;
}

/** Year at `i`: "twenty twenty four", "nineteen eighty", "two thousand five", "2024". */
function parseYear(words: string[], i: number): { value: number; next: number } | null {
  const a = parseCardinal(words, i);
  if (a && a.value >= 1000 && a.value <= 2999) return { value: a.value, next: a.next };
  if (a && a.value >= 10 && a.value <= 29 && a.words === 1) {
    const b = parseCardinal(words, a.next);
    if (b && b.value >= 10 && b.value < 100) return { value: a.value * 100 + b.value, next: b.next };
    if (words[a.next] === 'oh' && words[a.next + 1]! in UNITS) {
      return { value: a.value * 100 + UNITS[words[a.next + 1]!]!, next: a.next + 2 };
    }
  }
  return null;
}

/** Turns normalised words into output tokens. `raw` keeps the recogniser's spelling for plain words. */
function tokenize(words: string[], raw: string[], dictation: boolean): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    const prev = i > 0 ? words[i - 1]! : '';
    if (dictation) {
      const cmd = COMMANDS.find((c) => matchAt(words, i, c.words));
      const nounUse = (w === 'period' && PERIOD_NOUN_BEFORE.has(prev)) || (w === 'colon' && COLON_NOUN_BEFORE.has(prev));
      if (cmd && !nounUse) {
        const kind = cmd.out.startsWith('\n') ? 'break' : cmd.out === '(' ? 'open' : 'punct';
        out.push({ text: cmd.out, kind, from: i, to: i + cmd.words.length });
        i += cmd.words.length;
        continue;
      }
    }
    const month = MONTHS.indexOf(w);
    if (month >= 0 && !(w === 'may' && !parseOrdinal(words, i + 1))) {
      const day = parseOrdinal(words, i + 1) ?? (() => {
        const c = parseCardinal(words, i + 1);
        return c && c.value >= 1 && c.value <= 31 && c.words <= 2 ? { value: c.value, next: c.next } : null;
      })();
      if (day) {
        const year = parseYear(words, words[day.next] === 'of' ? day.next + 1 : day.next);
        const name = w[0]!.toUpperCase() + w.slice(1);
        const text = year ? `${name} ${day.value}, ${year.value}` : `${name} ${day.value}`;
        const to = year ? year.next : day.next;
        out.push({ text, kind: 'word', from: i, to });
        i = to;
        continue;
      }
    }
    const num = parseNumber(words, i);
    if (num) {
      let text = num.text;
      let next = num.next;
      // A reading such as blood pressure: "<number> over <number>".
      if (words[next] === 'over') {
        const den = parseNumber(words, next + 1);
        if (den) {
          text = `${text}/${den.text}`;
          next = den.next;
        }
      }
      const unit = UNIT_PHRASES.find((u) => matchAt(words, next, u.words));
      if (unit) {
        text = unit.space ? `${text} ${unit.out}` : `${text}${unit.out}`;
        next += unit.words.length;
      } else if (words[next] === 'degrees') {
        // Body temperature in the product's locale is Fahrenheit; Celsius values are said with "celsius".
        text = `${text} ${num.value >= 80 && num.value <= 115 ? '°F' : '°'}`;
        next += 1;
      }
      const lone = num.words === 1 && next === num.next && num.value < 10 && !/^\d/.test(w);
      if (!lone) {
        out.push({ text, kind: 'word', from: i, to: next });
        i = next;
        continue;
      }
    }
    out.push({ text: w === 'i' ? 'I' : raw[i]!, kind: 'word', from: i, to: i + 1 });
    i++;
  }
  return out;
}

/** Capitalises sentence starts; returns the display text of each token. */
function capitalise(tokens: Token[], dictation: boolean): string[] {
  let sentenceStart = true;
  return tokens.map((t) => {
    let text = t.text;
    if (t.kind === 'word') {
      if (sentenceStart) text = text.charAt(0).toUpperCase() + text.slice(1);
      sentenceStart = false;
    } else if (t.kind === 'break' || (dictation && /^[.?!]$/.test(t.text))) {
      sentenceStart = true;
    }
    return text;
  });
}

function joinTokens(tokens: Token[], texts: string[]): string {
  let s = '';
  tokens.forEach((t, k) => {
    const prev = k > 0 ? tokens[k - 1]! : null;
    if (t.kind === 'break') {
      s = s.replace(/[ \t]+$/, '') + t.text;
      return;
    }
    const glue = !prev || prev.kind === 'break' || prev.kind === 'open' || t.kind === 'punct';
    s += (glue ? '' : ' ') + texts[k];
  });
  return s.trim();
}

/**
 * Formats raw recognised text as dictation: spoken punctuation and commands, numbers, dates,
 * readings and units, sentence capitalisation (see the module comment for the rules).
 * @example formatDictation('blood pressure one twenty over eighty period') // "Blood pressure 120/80."
 */
export function formatDictation(text: string): string {
  const raw = text.split(/\s+/).filter(Boolean);
  const words = raw.map(norm);
  const tokens = tokenize(words, raw, true);
  return joinTokens(tokens, capitalise(tokens, true));
}

/**
 * Display forms for timed words. With `dictation` the dictation rules apply and merged spans
 * become one entry (see the module comment); without it each word keeps its own entry, the first
 * word of the text is capitalised, "i" becomes "I", and the last word gets a full stop.
 * Confidence of a merged entry is the lowest of its words, since one wrong word spoils a number.
 */
export function punctuateWords(words: RecognizedWord[], opts: { dictation: boolean }): PunctuatedWord[] {
  const raw = words.map((w) => w.word);
  const normed = raw.map(norm);
  if (!opts.dictation) {
    return words.map((w, k) => {
      let p = normed[k] === 'i' ? 'I' : w.word;
      if (k === 0) p = p.charAt(0).toUpperCase() + p.slice(1);
      if (k === words.length - 1 && !/[.?!]$/.test(p)) p += '.';
      return { ...w, punctuated_word: p };
    });
  }
  const tokens = tokenize(normed, raw, true);
  const texts = capitalise(tokens, true);
  const result: PunctuatedWord[] = [];
  tokens.forEach((t, k) => {
    const span = words.slice(t.from, t.to);
    const last = result[result.length - 1];
    if (t.kind !== 'word' && t.kind !== 'open' && last) {
      // Commands ride on the word before them: the client shows "pain," for "pain comma".
      last.punctuated_word += t.kind === 'break' ? '' : texts[k];
      last.end = Math.max(last.end, span[span.length - 1]!.end);
      return;
    }
    if (t.kind !== 'word' && t.kind !== 'open') return; // a command before any word has nothing to attach to
    result.push({
      word: span.map((w) => w.word).join(' '),
      start: span[0]!.start,
      end: span[span.length - 1]!.end,
      confidence: Math.min(...span.map((w) => w.confidence)),
      punctuated_word: texts[k]!,
    });
  });
  // An "open" token glues to the next word.
  for (let k = 0; k < result.length - 1; k++) {
    if (result[k]!.punctuated_word === '(') {
      result[k + 1]!.punctuated_word = `(${result[k + 1]!.punctuated_word}`;
      result[k + 1]!.start = result[k]!.start;
      result.splice(k, 1);
    }
  }
  return result;
}
