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
 *   a lone "one".."nine" stays a word unless a unit, "over" or "percent" follows; a disfluent
 *   repeat is written once ("six hundred six hundred milligrams" -> "600 mg", never 60600);
 *   number words and units are read by `services/clinical-language`;
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
import { readNumberAt, readOrdinalAt, readYearAt } from '../clinical-language/number-words.js';
import { formatQuantity, unitAt } from '../clinical-language/units.js';

/** A timed word with its display form (capitalised, punctuated, numbers as digits). */
export type PunctuatedWord = RecognizedWord & { punctuated_word: string };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
  'september', 'october', 'november', 'december'];

/** Spoken commands by what they write; tried longest first so "new paragraph" wins over a lone "new". */
const COMMANDS: Array<{ words: string[]; out: string }> = Object.entries({
  '!': ['exclamation point', 'exclamation mark'], '?': ['question mark'],
  '\n\n': ['new paragraph', 'next paragraph'], '\n': ['new line', 'next line'], '.': ['full stop', 'period'],
  '(': ['open parenthesis', 'open paren'], ')': ['close parenthesis', 'close paren'],
  ',': ['comma'], ':': ['colon'], ';': ['semicolon'], '/': ['slash'],
}).flatMap(([out, spoken]) => spoken.map((said) => ({ words: said.split(' '), out }))).sort((a, b) => b.words.length - a.words.length);
/** Words before "period" / "colon" that make them nouns rather than punctuation. */
const PERIOD_NOUN_BEFORE = new Set(['menstrual', 'the', 'a', 'this', 'that', 'postoperative',
  'postpartum', 'refractory', 'incubation', 'waiting', 'trial', 'grace', 'her', 'his', 'same', 'short', 'long']);
const COLON_NOUN_BEFORE = new Set(['the', 'a', 'sigmoid', 'ascending', 'descending', 'transverse',
  'her', 'his', 'their', 'your', 'of', 'entire', 'distal', 'proximal', 'right', 'left', 'spastic']);

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

/** Turns normalised words into output tokens. `raw` keeps the recogniser's spelling for plain words. */
function toTokens(words: string[], raw: string[], dictation: boolean): Token[] {
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
    if (month >= 0 && !(w === 'may' && !readOrdinalAt(words, i + 1))) {
      const day = readOrdinalAt(words, i + 1) ?? (() => {
        const c = readNumberAt(words, i + 1, { years: false });
        return c && c.form === 'cardinal' && c.value >= 1 && c.value <= 31 && c.next - i - 1 <= 2 ? { value: c.value, next: c.next } : null;
      })();
      if (day) {
        const year = readYearAt(words, words[day.next] === 'of' ? day.next + 1 : day.next);
        const name = w[0]!.toUpperCase() + w.slice(1);
        const text = year ? `${name} ${day.value}, ${year.value}` : `${name} ${day.value}`;
        const to = year ? year.next : day.next;
        out.push({ text, kind: 'word', from: i, to });
        i = to;
        continue;
      }
    }
    // Years are read only after a month: alone, "twenty twenty" is as likely a visual acuity.
    const num = readNumberAt(words, i, { years: false, foldRepeats: true });
    if (num) {
      let text = num.text;
      let next = num.next;
      // A reading such as blood pressure: "<number> over <number>".
      if (words[next] === 'over') {
        const den = readNumberAt(words, next + 1, { years: false });
        if (den) {
          text = `${text}/${den.text}`;
          next = den.next;
        }
      }
      const unit = unitAt(words, next, num.value);
      if (unit) {
        text = formatQuantity(text, { symbol: unit.symbol, space: unit.unit.space });
        next = unit.next;
      }
      // A lone small number stays a word ("two children"); a folded repeat ("two two") too, as said.
      const lone = !num.repeated && next === num.next && num.next === i + 1 && num.value < 10 && !/^\d/.test(w);
      const loneRepeat = num.repeated && next === num.next && num.value < 10 && !/^\d/.test(w) && num.form !== 'decimal';
      if (!lone && !loneRepeat) {
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
  const tokens = toTokens(words, raw, true);
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
  const tokens = toTokens(normed, raw, true);
  // An utterance that is only "new line" / "new paragraph" keeps its words: a live client reads
  // it as a voice command, and a break with no word before it has nothing to ride on.
  if (tokens.length > 0 && tokens.every((t) => t.kind === 'break')) return words.map((w) => ({ ...w, punctuated_word: w.word }));
  const texts = capitalise(tokens, true);
  const result: PunctuatedWord[] = [];
  tokens.forEach((t, k) => {
    const span = words.slice(t.from, t.to);
    const last = result[result.length - 1];
    if (t.kind !== 'word' && t.kind !== 'open' && last) {
      // Commands ride on the word before them: the client shows "pain," for "pain comma", and a
      // line break as "pain\n" (joined texts drop the spaces around a break).
      last.punctuated_word += texts[k];
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
