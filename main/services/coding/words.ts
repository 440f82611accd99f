/**
 * Words as the coder compares them: code titles and clinical text go through the same
 * normalisation, so "Osteoarthritis of knees" and "knee osteoarthritis" share `knee`, and
 * "stage IIIa" reads as `3a`.
 */

/** A normalised word with its UTF-16 offsets in the text it came from. */
export interface Word {
  norm: string;
  start: number;
  end: number;
}

const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iiia: '3a', iiib: '3b', iv: '4', v: '5' };
/** Words after which a Roman numeral is a number ("type II", "stage IIIb", "class III"). */
const NUMBERED = new Set(['type', 'stage', 'class', 'grade', 'dm']);
const NO_PLURAL_STRIP = /(ss|us|is|ous|ias|sis|xis)$/;

/** Lower case, no plural `s`, a few spellings folded ("anaemia"). Both sides of a comparison use it. */
export function normWord(raw: string, previous?: string): string {
  let w = raw.toLowerCase().replace(/[’']/g, '');
  if (previous && NUMBERED.has(previous) && ROMAN[w]) return ROMAN[w]!;
  w = w.replace(/ae/g, 'e');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !NO_PLURAL_STRIP.test(w)) return w.slice(0, -1);
  return w;
}

// Hyphenated words are one word ("gastro-esophageal", "a-fib"); digits and letters may mix ("3a", "t2dm", "covid-19").
const WORD_RE = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;

/** The words of a text with their offsets; hyphens and apostrophes inside a word are dropped. */
export function wordsOf(text: string, offset = 0): Word[] {
  const out: Word[] = [];
  let previous: string | undefined;
  for (const m of text.matchAll(WORD_RE)) {
    const joined = m[0].replace(/[-'’]/g, '');
    const norm = normWord(joined, previous);
    out.push({ norm, start: offset + m.index, end: offset + m.index + m[0].length });
    previous = norm;
  }
  return out;
}

/** Words that carry no meaning in a title or a phrase. */
export const STOP_WORDS = new Set(['of', 'the', 'and', 'or', 'in', 'to', 'a', 'an', 'by', 'for', 'due', 'as', 'at', 'on', 'from', 'is', 'are', 'site', 'sided']);

/** How a title word must be supported by the text for a code to fit. */
export type TitleItemMode = 'required' | 'soft' | 'generic' | 'absent';

export interface TitleItem {
  word: string;
  mode: TitleItemMode;
  /** Words the title offers instead ("tear or rupture", "bronchus or lung"): any one of them fits. */
  alt?: string[];
}

export interface ParsedTitle {
  items: TitleItem[];
  /** "Other ..." codes: chosen only when nothing plainer fits. */
  other: boolean;
  /** "..., unspecified": the default when the text says no more. */
  unspecified: boolean;
}

/**
 * Reads a code title into what the text must say for the code to fit, following the table's
 * conventions: words in parentheses are nonessential modifiers (soft); after "without" or "not"
 * a word must be absent; the word after "unspecified" needs no support.
 */
export function parseTitle(title: string, softWords: ReadonlySet<string>): ParsedTitle {
  const items: TitleItem[] = [];
  let other = false;
  let unspecified = false;
  let inParen = 0;
  let absent = false;
  let afterUnspecified = false;
  let previous: string | undefined;
  // After "or" the next word is an alternative to the one before ("tear or rupture").
  let or = false;
  for (const m of title.matchAll(/[()]|,|[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu)) {
    const tok = m[0];
    if (tok === '(') (inParen++, (or = false));
    else if (tok === ')') (inParen = Math.max(0, inParen - 1), (or = false));
    else if (tok === ',') {
      absent = false;
      afterUnspecified = false;
      or = false;
    } else {
      const w = normWord(tok.replace(/[-'’]/g, ''), previous);
      previous = w;
      const last = items[items.length - 1];
      if (w === 'or') {
        or = !!last;
        continue;
      }
      if (or && last && !STOP_WORDS.has(w) && !['with', 'without', 'not', 'no', 'other', 'specified', 'unspecified', 'nos', 'nec'].includes(w)) {
        // Same mode as the word it stands beside: "tear or rupture" is one required item.
        (last.alt ??= []).push(w);
        or = false;
        continue;
      }
      or = false;
      if (w === 'with') absent = false;
      else if (w === 'without' || w === 'not' || w === 'no') absent = true;
      else if (w === 'other' || w === 'specified' || w === 'nec' || w === 'elsewhere' || w === 'classified') other ||= w === 'other';
      else if (w === 'unspecified' || w === 'nos') {
        unspecified = true;
        // "Unspecified osteoarthritis, ..." qualifies the whole title; "..., unspecified knee" only the next word.
        afterUnspecified = items.length > 0;
      } else if (!STOP_WORDS.has(w)) {
        const mode: TitleItemMode = absent ? 'absent' : afterUnspecified ? 'generic' : inParen || softWords.has(w) ? 'soft' : 'required';
        items.push({ word: w, mode });
        afterUnspecified = false;
      }
    }
  }
  return { items, other, unspecified };
}

/**
 * Both index keys of a title or phrase in one pass (the title index builds ~200,000 of them):
 * without and with the parenthesised nonessential modifiers, bracketed text and "unspecified"
 * left out.
 */
export function phraseKeysOf(text: string): [string, string] {
  const source = text.includes('lsewhere') ? text.replace(/not elsewhere classified/gi, ' ') : text;
  const plain: string[] = [];
  const all: string[] = [];
  let depth = 0;
  let bracket = 0;
  let previous: string | undefined;
  for (const m of source.matchAll(/[()[\]]|[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu)) {
    const tok = m[0];
    if (tok === '(') depth++;
    else if (tok === ')') depth = Math.max(0, depth - 1);
    else if (tok === '[') bracket++;
    else if (tok === ']') bracket = Math.max(0, bracket - 1);
    else if (!bracket) {
      const w = normWord(/[-'’]/.test(tok) ? tok.replace(/[-'’]/g, '') : tok, previous);
      previous = w;
      if (w === 'unspecified' || w === 'nos' || w === 'nec' || STOP_WORDS.has(w)) continue;
      all.push(w);
      if (!depth) plain.push(w);
    }
  }
  return [plain.join(' '), all.join(' ')];
}
