/**
 * Guards against invented facts in model-written notes: a sentence is dropped when it carries a
 * number (dose, vital, duration) that no source states, or names a listed medication the sources
 * never mention. Sources are the transcript, previous note, context and instructions. Numbers
 * spoken as words in the sources ("five hundred milligrams") count as stated.
 */
import { isVariantOf } from './medication-spelling.js';

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  a: 1, an: 1, once: 1, twice: 2, single: 1, couple: 2, half: 0.5,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** Every number a text states, in digits or English words ("one twenty over eighty" -> 1, 120, 80...). */
export function statedNumbers(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const m of lower.matchAll(/\d+(?:[.,]\d+)?/g)) {
    out.add(normalise(m[0].replace(',', '.')));
    for (const part of m[0].split(/[.,]/)) out.add(normalise(part));
  }
  const words = lower.split(/[^a-z]+/).filter(Boolean);
  let current: number | null = null;
  let pendingHundreds = 0;
  const flush = (): void => {
    if (current !== null) out.add(String(pendingHundreds + current));
    else if (pendingHundreds) out.add(String(pendingHundreds));
    current = null;
    pendingHundreds = 0;
  };
  for (const w of words) {
    if (w in TENS) {
      if (current !== null && current >= 20) flush();
      if (current !== null && current > 0 && current < 10 && !pendingHundreds) {
        // "one thirty" is 130 when people read out blood pressures or doses.
        pendingHundreds = current * 100;
        current = null;
      }
      current = (current ?? 0) + TENS[w]!;
    } else if (w in UNITS && !['a', 'an'].includes(w)) {
      const v = UNITS[w]!;
      if (current !== null && current % 10 === 0 && current >= 20 && v < 10) current += v;
      else {
        // "one twenty" (120 spoken as digits): keep both readings.
        if (current !== null) {
          out.add(String(current));
          out.add(`${current}${v}`);
        }
        flush();
        current = v;
      }
    } else if (w === 'hundred') {
      pendingHundreds += (current ?? 1) * 100;
      current = null;
    } else if (w === 'thousand') {
      out.add(String(((current ?? 0) + pendingHundreds || 1) * 1000));
      current = null;
      pendingHundreds = 0;
    } else if (w === 'and' && pendingHundreds) {
      continue;
    } else flush();
    if (current !== null) out.add(String(pendingHundreds + current));
  }
  flush();
  // "a couple of days", "a week": common small counts read from articles.
  for (const w of words) if (w === 'a' || w === 'an') out.add('1');
  return out;
}

function normalise(n: string): string {
  const v = Number(n);
  return Number.isFinite(v) ? String(v) : n;
}

export interface Grounding {
  /** Returns `text` without the sentences that state facts no source supports. */
  keepSupported(text: string): string;
}

/**
 * @param sources texts the note may draw on
 * @param medications the caller's medication list (drugs that must not appear unless mentioned)
 */
export function createGrounding(sources: string[], medications: string[]): Grounding {
  const joined = sources.join('\n');
  const numbers = statedNumbers(joined);
  const sourceWords = joined.toLowerCase().match(/[\p{L}][\p{L}'-]*/gu) ?? [];
  const mentioned = (drug: string): boolean => {
    const first = drug.toLowerCase().split(/\s+/)[0]!;
    return sourceWords.some((w) => w === first || isVariantOf(w, first));
  };
  // Number words are read in English only: for sources in another language the number check would
  // drop true sentences, so only the digit-free drug check applies there.
  const english = (joined.match(/\b(the|and|you|your|is|it|of|to|have|with|my|i|was|for|on|in|take|over)\b/gi) ?? []).length;
  const other =
    (joined.match(/(?<![\p{L}])(el|la|los|las|que|y|le|les|et|est|der|die|das|und|ist|il|che|di|não|você|и|в|не|что|на)(?![\p{L}])/giu) ?? []).length +
    (joined.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length / 2;
  const checkNumbers = english > 0 && english >= other;
  const unmentionedDrugs = medications.filter((m) => !mentioned(m)).map((m) => m.toLowerCase());

  const supported = (sentence: string): boolean => {
    for (const m of checkNumbers ? sentence.matchAll(/\d+(?:\.\d+)?/g) : []) {
      const value = normalise(m[0]);
      // Four-digit years are dates, not doses: out of this guard's scope.
      if (/^(19|20)\d\d$/.test(m[0])) continue;
      if (!numbers.has(value)) return false;
    }
    const lower = sentence.toLowerCase();
    return !unmentionedDrugs.some((d) => new RegExp(`(?<![\\p{L}])${escape(d)}(?![\\p{L}])`, 'u').test(lower));
  };

  return {
    keepSupported(text: string): string {
      // Split after sentence ends (not inside decimals like 2.5) and at line breaks.
      const pieces = text.split(/(?<=[.!?。！？])\s+|(?=\n)/);
      return pieces
        .filter((p) => supported(p))
        .join(' ')
        .replace(/ \n/g, '\n')
        .trim();
    },
  };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
