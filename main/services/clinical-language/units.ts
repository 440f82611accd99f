/**
 * Units of measure and dosing frequencies as clinicians say and write them: "milligrams" and
 * "mg" are one unit written "mg", "millimeters of mercury" is "mmHg", "twice a day" is BID.
 * Pure tables and look-ups; reading the number in front of a unit is `numbers.ts`'s job.
 */

/** What a unit measures, so a caller can tell a dose from a vital sign. */
export type UnitKind = 'mass' | 'volume' | 'dose' | 'length' | 'weight' | 'pressure' | 'rate' | 'temperature' | 'percent' | 'concentration';

/** One unit: the spoken or written forms (lower-case word sequences) and how it is written. */
export interface Unit {
  symbol: string;
  kind: UnitKind;
  /** False for units written against the number ("98%"). */
  space: boolean;
  forms: readonly string[];
}

/** Singular and plural spoken forms of a unit name. */
const named = (...singulars: string[]): string[] =>
  singulars.flatMap((s) => [s, /(ch|sh|s)$/.test(s) ? `${s}es` : `${s}s`]);

/** Every unit the clinical language knows, longest forms first within each entry. */
export const UNITS: readonly Unit[] = [
  { symbol: 'mmHg', kind: 'pressure', space: true, forms: ['millimeters of mercury', 'millimetres of mercury', 'mm hg', 'mmhg'] },
  { symbol: 'mg/kg', kind: 'concentration', space: true, forms: ['milligrams per kilogram', 'milligram per kilogram', 'mg/kg', 'mg per kg'] },
  { symbol: 'mg/mL', kind: 'concentration', space: true, forms: ['milligrams per milliliter', 'mg/ml', 'mg per ml'] },
  { symbol: 'bpm', kind: 'rate', space: true, forms: ['beats per minute', 'beats a minute', 'bpm'] },
  { symbol: 'breaths/min', kind: 'rate', space: true, forms: ['breaths per minute', 'breaths a minute', 'breaths/min'] },
  { symbol: 'IU', kind: 'dose', space: true, forms: ['international units', 'international unit', 'iu'] },
  { symbol: '°F', kind: 'temperature', space: true, forms: ['degrees fahrenheit', 'degree fahrenheit', '°f'] },
  { symbol: '°C', kind: 'temperature', space: true, forms: ['degrees celsius', 'degrees centigrade', 'degree celsius', '°c'] },
  { symbol: '%', kind: 'percent', space: false, forms: ['percent', 'per cent', '%'] },
  { symbol: 'mg', kind: 'mass', space: true, forms: [...named('milligram', 'milligramme'), 'mg', 'mgs'] },
  { symbol: 'mcg', kind: 'mass', space: true, forms: [...named('microgram'), 'mcg', 'mcgs', 'µg', 'ug'] },
  { symbol: 'g', kind: 'mass', space: true, forms: [...named('gram', 'gramme'), 'g', 'gm'] },
  { symbol: 'kg', kind: 'weight', space: true, forms: [...named('kilogram', 'kilo'), 'kg', 'kgs'] },
  { symbol: 'lb', kind: 'weight', space: true, forms: [...named('pound'), 'lb', 'lbs'] },
  { symbol: 'mL', kind: 'volume', space: true, forms: [...named('milliliter', 'millilitre'), 'ml', 'cc', 'ccs'] },
  { symbol: 'L', kind: 'volume', space: true, forms: [...named('liter', 'litre')] },
  { symbol: 'mEq', kind: 'dose', space: true, forms: [...named('milliequivalent'), 'meq'] },
  { symbol: 'units', kind: 'dose', space: true, forms: ['units', 'unit'] },
  { symbol: 'mm', kind: 'length', space: true, forms: [...named('millimeter', 'millimetre'), 'mm'] },
  { symbol: 'cm', kind: 'length', space: true, forms: [...named('centimeter', 'centimetre'), 'cm'] },
  { symbol: 'in', kind: 'length', space: true, forms: ['inches', 'inch'] },
];

const FORMS: readonly { words: string[]; unit: Unit }[] = UNITS.flatMap((unit) => unit.forms.map((f) => ({ words: f.split(' '), unit })))
  .sort((a, b) => b.words.length - a.words.length);
const BY_FORM = new Map<string, Unit>(UNITS.flatMap((u) => u.forms.map((f) => [f, u] as const)));

/** A unit matched in a word list: its symbol and the index after it. */
export interface UnitMatch {
  unit: Unit;
  /** How to write it after `value`: "°F" for a bare "degrees" at body temperature. */
  symbol: string;
  next: number;
}

/**
 * The unit named at `words[i]` (lower-case words), longest form first ("beats per minute" before
 * "beats"); a bare "degrees" is Fahrenheit when `value` is a body temperature in Fahrenheit
 * (80-115, the product's locale), otherwise just "°".
 */
export function unitAt(words: readonly string[], i: number, value?: number): UnitMatch | null {
  for (const f of FORMS) {
    if (f.words.every((w, k) => words[i + k] === w)) return { unit: f.unit, symbol: f.unit.symbol, next: i + f.words.length };
  }
  if (words[i] === 'degrees' || words[i] === 'degree') {
    const fahrenheit = value !== undefined && value >= 80 && value <= 115;
    const unit = fahrenheit ? BY_FORM.get('°f')! : { symbol: '°', kind: 'temperature' as const, space: true, forms: ['degrees'] };
    return { unit, symbol: unit.symbol, next: i + 1 };
  }
  return null;
}

/** The written symbol of a unit word or abbreviation ("Milligrams" -> "mg", "cc" -> "mL"); undefined when unknown. */
export function canonicalUnit(name: string): string | undefined {
  return BY_FORM.get(name.trim().toLowerCase().replace(/\s+/g, ' '))?.symbol;
}

/** Writes a value with its unit: "5 mg", "98%", "98.6 °F". */
export function formatQuantity(value: string, unit: Pick<Unit, 'symbol' | 'space'>): string {
  return unit.space ? `${value} ${unit.symbol}` : `${value}${unit.symbol}`;
}

// The unit names a note always writes short, wherever they stand: the abbreviation is what a
// reader of the note expects and cannot be misread.
const SHORT_IN_NOTES: [RegExp, string][] = [
  [/\bmilligrams?\b/gi, 'mg'],
  [/\bmicrograms?\b/gi, 'mcg'],
  [/\bmilliliters?\b|\bmillilitres?\b/gi, 'mL'],
  [/\bkilograms?\b/gi, 'kg'],
  [/\bcentimeters?\b|\bcentimetres?\b/gi, 'cm'],
  [/\bmillimeters?\b|\bmillimetres?\b/gi, 'mm'],
  [/(\d)\s*percent\b/gi, '$1%'],
];

/** Shortens the unit names a note writes as abbreviations ("20 milligrams" -> "20 mg", "98 percent" -> "98%"). */
export function abbreviateUnits(text: string): string {
  let out = text;
  for (const [re, unit] of SHORT_IN_NOTES) out = out.replace(re, unit);
  return out;
}

/** A dosing frequency read from text, with its plain and Latin-abbreviated forms. */
export interface Frequency {
  /** As written in the text. */
  text: string;
  start: number;
  end: number;
  /** Plain English: "twice daily", "every 6 hours", "at bedtime", "as needed". */
  plain: string;
  /** Prescription abbreviation: "BID", "Q6H", "QHS", "PRN". */
  abbreviation: string;
  /** Doses per day when fixed (BID = 2); undefined for "as needed" and weekly schedules. */
  perDay?: number;
}

const N = '(\\d+|one|two|three|four|five|six|eight|twelve|twenty four)';
const WORD_N: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, eight: 8, twelve: 12, 'twenty four': 24 };
const FREQUENCIES: { re: RegExp; plain: string | ((n: number) => string); abbreviation: string | ((n: number) => string); perDay?: number | ((n: number) => number) }[] = [
  { re: /\b(?:once (?:a|per) day|once daily|every day|daily|q\.?d\.?|qday)\b|(?<=\b(?:mg|milligrams?|mcg|micrograms?|units?|tablets?|pills?|capsules?)\s)(?:a|per) day\b/i, plain: 'once daily', abbreviation: 'QD', perDay: 1 },
  // "Two puffs in the morning and two puffs at night": a dose each morning and evening is twice daily.
  { re: /\b(?:twice (?:a|per) day|twice daily|two times (?:a|per) day|b\.?i\.?d\.?|(?:in the |every )?morning and (?:(?:then|again|also)\s+|(?:\d+|one|two|three|four) (?:puffs?|tablets?|tabs?|pills?|capsules?|units?|drops?|sprays?)\s+)?(?:at night|in the evening|every evening|at bedtime|night|evening))(?![a-z])/i, plain: 'twice daily', abbreviation: 'BID', perDay: 2 },
  { re: /\b(?:three times (?:a|per) day|three times daily|t\.?i\.?d\.?)(?![a-z])/i, plain: 'three times daily', abbreviation: 'TID', perDay: 3 },
  { re: /\b(?:four times (?:a|per) day|four times daily|q\.?i\.?d\.?)(?![a-z])/i, plain: 'four times daily', abbreviation: 'QID', perDay: 4 },
  { re: new RegExp(`\\b(?:every ${N} hours?|q\\s?${N}\\s?h(?:rs?|ours?)?)\\b`, 'i'), plain: (n) => `every ${n} hours`, abbreviation: (n) => `Q${n}H`, perDay: (n) => 24 / n },
  { re: /\b(?:at bedtime|at night|nightly|every night|q\.?h\.?s\.?)(?![a-z])/i, plain: 'at bedtime', abbreviation: 'QHS', perDay: 1 },
  { re: /\b(?:every other day|q\.?o\.?d\.?)(?![a-z])/i, plain: 'every other day', abbreviation: 'QOD' },
  { re: /\b(?:once (?:a|per) week|weekly|every week)\b|(?<=\b(?:mg|milligrams?|mcg|micrograms?|units?|tabs?|tablets?|pills?|capsules?|injections?|shots?)\s)(?:a|per) week\b/i, plain: 'weekly', abbreviation: 'weekly' },
  { re: /\b(?:as needed|when needed|p\.?r\.?n\.?|(?:as|if|when(?:ever)?) (?:you|he|she|they) (?:need|needs) (?:it|them|one))(?![a-z])/i, plain: 'as needed', abbreviation: 'PRN' },
];

/** Every dosing frequency in the text, in order ("metformin twice a day" -> twice daily / BID). */
export function readFrequencies(text: string): Frequency[] {
  const found: Frequency[] = [];
  for (const f of FREQUENCIES) {
    for (const m of text.matchAll(new RegExp(f.re.source, 'gi'))) {
      const raw = m.slice(1).find((g) => g !== undefined);
      const n = raw === undefined ? NaN : /^\d+$/.test(raw) ? Number(raw) : WORD_N[raw.toLowerCase()] ?? NaN;
      const pick = <T>(v: T | ((n: number) => T)): T => (typeof v === 'function' ? (v as (n: number) => T)(n) : v);
      const perDay = f.perDay === undefined ? undefined : pick(f.perDay);
      found.push({ text: m[0], start: m.index, end: m.index + m[0].length, plain: pick(f.plain), abbreviation: pick(f.abbreviation), ...(perDay !== undefined && Number.isFinite(perDay) ? { perDay } : {}) });
    }
  }
  // "Every 6 to 8 hours": a range of intervals; the shorter one bounds how often a dose may be taken.
  for (const m of text.matchAll(new RegExp(`\\bevery ${N}(?:\\s*-\\s*|\\s+to\\s+|\\s+or\\s+)${N} hours?\\b`, 'gi'))) {
    const [a, b] = [m[1]!, m[2]!].map((x) => (/^\d+$/.test(x) ? Number(x) : WORD_N[x.toLowerCase()] ?? NaN));
    if (!Number.isFinite(a) || !Number.isFinite(b) || a! >= b!) continue;
    found.push({ text: m[0], start: m.index, end: m.index + m[0].length, plain: `every ${a}-${b} hours`, abbreviation: `Q${a}-${b}H`, perDay: 24 / a! });
  }
  // "twice daily" holds "daily": the longest phrase wins where two overlap.
  const out: Frequency[] = [];
  for (const f of found.sort((a, b) => b.text.length - a.text.length)) {
    if (!out.some((o) => f.start < o.end && o.start < f.end)) out.push(f);
  }
  return out.sort((a, b) => a.start - b.start);
}
