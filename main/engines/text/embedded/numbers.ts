/**
 * Number, unit and vital-sign normalisation for English clinical text: "three days" -> "3 days",
 * "one twenty over eighty" -> "120/80", "twenty milligrams" -> "20 mg", "ninety eight percent"
 * -> "98%". Only spelled numbers in a quantity position are converted, so "no one" stays text.
 */

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const NUMBER_WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), 'hundred', 'thousand', 'half', 'a'].join('|')})`;
// A run of number words: "one hundred and twenty five", "twenty-five", "ninety eight point six".
const RUN = new RegExp(`\\b${NUMBER_WORD}(?:(?:[\\s-]+|\\s+and\\s+)(?:${NUMBER_WORD}|point))*(?:\\s+point(?:\\s+${NUMBER_WORD})+)?\\b`, 'gi');

/** Parse a run of English number words; undefined when it is not a number. */
export function parseNumberWords(words: string): number | undefined {
  const parts = words.toLowerCase().replace(/-/g, ' ').split(/\s+/).filter((w) => w && w !== 'and');
  if (parts.length === 0 || parts.every((p) => p === 'a' || p === 'half')) return undefined;
  const pointAt = parts.indexOf('point');
  const intParts = pointAt >= 0 ? parts.slice(0, pointAt) : parts;
  let total = 0;
  let current = 0;
  let seen = false;
  for (const p of intParts) {
    if (p in UNITS) {
      // "one twenty" (spoken 120) and "ninety eight": a unit after a unit starts a new group.
      if (current % 10 !== 0 && current < 20 && seen && current !== 0) current = current * 100 + UNITS[p]!;
      else current += UNITS[p]!;
      seen = true;
    } else if (p in TENS) {
      if (current !== 0 && current < 10) current = current * 100 + TENS[p]!;
      else if (current !== 0 && current % 100 === 0) current += TENS[p]!;
      else if (current !== 0) current = current * 100 + TENS[p]!;
      else current += TENS[p]!;
      seen = true;
    } else if (p === 'hundred') {
      current = (current || 1) * 100;
      seen = true;
    } else if (p === 'thousand') {
      total += (current || 1) * 1000;
      current = 0;
      seen = true;
    } else if (p === 'a') {
      continue;
    } else return undefined;
  }
  let value = total + current;
  if (pointAt >= 0) {
    const decimals = parts.slice(pointAt + 1).map((p) => UNITS[p]);
    if (decimals.length === 0 || decimals.some((d) => d === undefined)) return seen ? value : undefined;
    value = Number(`${value}.${decimals.join('')}`);
  }
  return seen ? value : undefined;
}

const QUANTITY_FOLLOWERS =
  /^\s*(-?\s*)?(days?|weeks?|months?|years?|hours?|minutes?|seconds?|times?|mg|milligrams?|micrograms?|mcg|grams?|g|milliliters?|ml|units?|tablets?|pills?|capsules?|puffs?|drops?|pounds?|lbs?|kilograms?|kg|kilos?|centimeters?|cm|millimeters?|mm|inches?|feet|foot|degrees?|percent|%|beats?|breaths?|over|out of|liters?|l|cc|servings?|cigarettes?|packs?|drinks?|beers?|glasses?|cups?|nights?|episodes?|visits?|children|kids|sessions?|steps?|miles?|blocks?|flights?|stairs?|doses?|sprays?|injections?|shots?|y\/o|year-old|year old)\b/i;
const QUANTITY_LEADERS =
  /\b(is|was|were|are|at|of|about|around|approximately|roughly|maybe|like|to|from|between|and|or|by|over|under|than|only|just|last|past|for|every|than|blood pressure|pressure|pulse|rate|temperature|saturation|weight|weighs|a1c|score|number|grade|level|stage|type)\s*$/i;

const UNIT_NAMES: [RegExp, string][] = [
  [/\bmilligrams?\b/gi, 'mg'],
  [/\bmicrograms?\b/gi, 'mcg'],
  [/\bmilliliters?\b|\bmillilitres?\b/gi, 'mL'],
  [/\bkilograms?\b/gi, 'kg'],
  [/\bcentimeters?\b|\bcentimetres?\b/gi, 'cm'],
  [/\bmillimeters?\b|\bmillimetres?\b/gi, 'mm'],
  [/(\d)\s*percent\b/gi, '$1%'],
];

/** Replace spelled numbers in quantity positions with digits and shorten common units. */
export function normaliseNumbers(text: string): string {
  let out = text.replace(RUN, (match, offset: number, whole: string) => {
    const before = whole.slice(Math.max(0, offset - 40), offset);
    const after = whole.slice(offset + match.length, offset + match.length + 20);
    const words = match.trim().split(/[\s-]+/);
    if (/^(a|half|a half)$/i.test(match.trim())) return match;
    const value = parseNumberWords(match);
    if (value === undefined) return match;
    const compound = words.filter((w) => !/^(and|a)$/i.test(w)).length > 1;
    const quantity = QUANTITY_FOLLOWERS.test(after) || QUANTITY_LEADERS.test(before) || /^\s*\/|^\s*over\s/i.test(after);
    // "one" alone is too often a pronoun ("the one on the left"); keep it unless clearly a count.
    if (!compound && /^(one|a)$/i.test(match.trim()) && !QUANTITY_FOLLOWERS.test(after)) return match;
    if (!compound && !quantity) return match;
    const lead = /^a\s/i.test(match) ? 'a ' : '';
    return `${lead}${value}`;
  });
  // Blood pressure: "120 over 80" -> "120/80".
  out = out.replace(/\b(\d{2,3})\s+over\s+(\d{2,3})\b/gi, '$1/$2');
  for (const [re, unit] of UNIT_NAMES) out = out.replace(re, unit);
  out = out.replace(/\b(\d+)\s*-\s*(year|month|week|day)\s*-?\s*old\b/gi, '$1-$2-old');
  out = out.replace(/\b(\d+)\s+(year|month|week|day)s?\s+old\b/gi, '$1-$2-old');
  return out;
}
