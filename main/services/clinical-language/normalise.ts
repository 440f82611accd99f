/**
 * Writes the numbers of an English transcript sentence as a note writes them: "three days" ->
 * "3 days", "one twenty over eighty" -> "120/80", "twenty milligrams" -> "20 mg", "ninety eight
 * percent" -> "98%", "six hundred six hundred milligrams" -> "600 mg". Only numbers in a quantity
 * position are converted, so "no one" stays text, and uncertain readings keep their words.
 */
import { readNumbers, type NumberReading } from './numbers.js';
import { abbreviateUnits } from './units.js';

// What follows a quantity: units, durations, counts of things.
const QUANTITY_FOLLOWERS =
  /^\s*(-?\s*)?(days?|weeks?|months?|years?|hours?|minutes?|seconds?|times?|mg|milligrams?|micrograms?|mcg|grams?|g|milliliters?|ml|units?|tablets?|pills?|capsules?|puffs?|drops?|pounds?|lbs?|kilograms?|kg|kilos?|centimeters?|cm|millimeters?|mm|inches?|feet|foot|degrees?|percent|%|beats?|breaths?|over|out of|liters?|l|cc|servings?|cigarettes?|packs?|drinks?|beers?|glasses?|cups?|nights?|episodes?|visits?|children|kids|sessions?|steps?|miles?|blocks?|flights?|stairs?|doses?|sprays?|injections?|shots?|y\/o|year-old|year old)\b/i;
// What precedes a quantity: a verb of being, a preposition of amount, a measured thing.
const QUANTITY_LEADERS =
  /\b(is|was|were|are|at|of|about|around|approximately|roughly|maybe|like|to|from|between|and|or|by|over|under|than|only|just|last|past|for|every|blood pressure|pressure|pulse|rate|temperature|saturation|weight|weighs|a1c|score|number|grade|level|stage|type)\s*$/i;

/** Number words in a reading, not counting "and" or the "a" of "a hundred". */
const numberWordCount = (spoken: string): number =>
  spoken.split(/[\s-]+/).filter((w) => /\p{L}/u.test(w) && !/^(and|a|an)$/i.test(w)).length;

function shouldWrite(r: NumberReading, text: string): boolean {
  if (r.uncertain || !r.spelled) return false;
  if (r.kind !== 'number' || r.repeated || numberWordCount(r.spoken) > 1) return true;
  const before = text.slice(Math.max(0, r.start - 40), r.start);
  const after = text.slice(r.end, r.end + 20);
  // "one" alone is too often a pronoun ("the one on the left"); keep it unless a unit or count follows.
  if (/^(one|a|an)$/i.test(r.spoken)) return QUANTITY_FOLLOWERS.test(after);
  return QUANTITY_FOLLOWERS.test(after) || QUANTITY_LEADERS.test(before) || /^\s*\//.test(after);
}

/** What {@link writeNumbers} wrote, and the readings it left as words for a reviewer. */
export interface WrittenNumbers {
  text: string;
  /** Numbers kept as spoken because they could mean two things (offsets into the input). */
  uncertain: NumberReading[];
}

/**
 * Replaces spelled numbers in quantity positions with digits and shortens common units; returns
 * the uncertain readings it kept as words so a caller can flag them.
 */
export function writeNumbers(text: string): WrittenNumbers {
  let out = '';
  let last = 0;
  const uncertain: NumberReading[] = [];
  for (const r of readNumbers(text)) {
    if (r.uncertain && r.spelled) uncertain.push(r);
    if (!shouldWrite(r, text)) continue;
    out += text.slice(last, r.start) + r.text;
    last = r.end;
  }
  out += text.slice(last);
  // Readings written in digits: "120 over 80" -> "120/80".
  out = out.replace(/\b(\d{2,3})\s+over\s+(\d{2,3})\b/gi, '$1/$2');
  out = abbreviateUnits(out);
  out = out.replace(/\b(\d+)\s*-\s*(year|month|week|day)\s*-?\s*old\b/gi, '$1-$2-old');
  out = out.replace(/\b(\d+)\s+(year|month|week|day)s?\s+old\b/gi, '$1-$2-old');
  // Speech recognisers write "type one diabetes" as "type i diabetes": the type is a number.
  out = out.replace(/\btype (i{1,2})(?=\s+diabet)/gi, (_m, r: string) => `type ${r.length}`);
  return { text: out, uncertain };
}

/** Replaces spelled numbers in quantity positions with digits and shortens common units. */
export function normaliseNumbers(text: string): string {
  return writeNumbers(text).text;
}
