/**
 * The caller's `medicationList` and the correction of drug names against it: misspelt or
 * mis-heard names ("metforman", "lisinipril", "zirtek", "lasics", "atorva statin", "insulin
 * glargin") become the listed spelling. A word is a variant of a listed drug when it is within
 * a few letter edits of it (scaled to the name's length, same first sound) or sounds the same
 * by Double Metaphone. Frequent English words and exact mentions are never rewritten. Used by
 * both note writers (on the transcript, on the model's text) and by grounding.
 */
import { editDistance } from './edit-distance.js';
import { soundKeys, keysMatch } from './phonetic.js';

export { DRUGS, DRUG_PHRASES, isDrugWord, type DrugEntry } from './medication-lexicon.js';

/**
 * Splits the comma-, semicolon- or line-separated list into names: trimmed, at least three
 * characters, each name once (compared without case; the first spelling is kept).
 */
export function parseMedicationList(list: string | undefined): string[] {
  if (!list) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list.split(/[,;\n]/)) {
    const name = raw.trim().replace(/\s+/g, ' ');
    const key = name.toLowerCase();
    if (name.length < 3 || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

// Frequent words a fuzzy match must never rewrite, even when they resemble a drug name.
const COMMON = new Set(
  'about above after again against always another anything around because before being below between both cannot could doing during each every feel feeling feels fever first from further great having here into itself just last later little might more most much need never night often only other over pain pill pills right same should since some still such take taking than that their them then there these they thing think this those through today together tomorrow under until very want well were what when where which while will with without would year years your yours daily dose doses twice morning evening listen lasts motion fine line mine glad plan plant plans place places plenty pressure process prostate protein proper prior problem problems patient patients person period periods pretty probably promise protect relax relaxing release stomach steroid steroids system systems metal method meeting remember sertain senior silly simple sugar sugars summer supply supper support swelling symptom symptoms tablet tablets vitamin vitamins water weather weight wheezing zinc'.split(
    ' ',
  ),
);

/** Edits a name of this length may carry and still be the same drug. */
const allowedEdits = (length: number): number => (length < 5 ? 0 : length <= 6 ? 1 : length <= 10 ? 2 : 3);

/**
 * Whether `candidate` (one or more words of a text) is plausibly a misspelling or mishearing
 * of `drug`; false for the exact name (any case) and for frequent English words.
 */
export function isMedicationVariant(candidate: string, drug: string): boolean {
  return variantDistance(candidate.toLowerCase(), drug.toLowerCase()) !== undefined;
}

/** Edit distance of a variant, or undefined when `c` is no variant of `m` (both lower case). */
function variantDistance(c: string, m: string): number | undefined {
  if (c === m || c.length < 4 || COMMON.has(c)) return undefined;
  if (Math.abs(c.length - m.length) > Math.max(2, m.length * 0.3)) return undefined;
  const d = editDistance(c, m, { max: Math.ceil(m.length / 2) });
  if (d > Math.ceil(m.length / 2)) return undefined;
  const kc = soundKeys(c);
  const km = soundKeys(m);
  const sameFirstSound = c[0] === m[0] || (kc !== null && km !== null && kc[0][0] === km[0][0]);
  if (d <= allowedEdits(m.length) && sameFirstSound) return d;
  return m.length >= 5 && kc !== null && km !== null && keysMatch(kc, km) ? d : undefined;
}

interface Edit {
  start: number;
  end: number;
  name: string;
}

/**
 * Replaces misspelt or mis-heard drug names in `text` with the listed spelling; everything
 * else, exact mentions included, is left as written.
 * @param text a transcript or model-written note text
 * @param medications names from {@link parseMedicationList}
 */
export function correctMedicationNames(text: string, medications: readonly string[]): string {
  if (medications.length === 0 || !text) return text;
  const drugs = medications.map((name) => ({ name, lower: name.toLowerCase(), words: name.split(' ').length }));
  const exact = new Set(drugs.map((d) => d.lower));
  const maxWords = Math.max(...drugs.map((d) => d.words));
  const tokens = [...text.matchAll(/\p{L}[\p{L}'-]*/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length, lower: m[0].toLowerCase() }));
  // Words of one span must be separated by plain spaces (or a hyphen), not punctuation.
  const spanText = (i: number, n: number): string | undefined => {
    const last = tokens[i + n - 1];
    if (!last) return undefined;
    const span = text.slice(tokens[i]!.start, last.end);
    return n === 1 || /^[\p{L}'-]+(?:[ -][\p{L}'-]+)*$/u.test(span) ? span.toLowerCase() : undefined;
  };
  /** The closest listed drug of `words` words that `candidate` is a variant of. */
  const closest = (candidate: string, words: number): string | undefined => {
    let best: { name: string; d: number } | undefined;
    for (const drug of drugs) {
      if (drug.words !== words) continue;
      const d = variantDistance(candidate, drug.lower);
      if (d !== undefined && (!best || d < best.d)) best = { name: drug.name, d };
    }
    return best?.name;
  };
  const edits: Edit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    let edit: Edit | undefined;
    // Longest names first, so "insulin glargin" is fixed as a whole before "insulin" alone.
    for (let n = Math.min(maxWords, tokens.length - i); n >= 1 && !edit; n--) {
      const span = spanText(i, n);
      if (span === undefined) continue;
      if (exact.has(span.replace(/[ -]+/g, ' '))) {
        edit = { start: tokens[i]!.start, end: tokens[i + n - 1]!.end, name: '' };
        break;
      }
      const name = closest(span, n);
      if (name) edit = { start: tokens[i]!.start, end: tokens[i + n - 1]!.end, name };
    }
    if (!edit) edit = splitName(i);
    if (!edit) continue;
    if (edit.name) edits.push(edit);
    while (i + 1 < tokens.length && tokens[i + 1]!.start < edit.end) i++;
  }

  /** A one-word name heard as two words ("atorva statin", "lisino pril"). */
  function splitName(i: number): Edit | undefined {
    const a = tokens[i];
    const b = tokens[i + 1];
    if (!a || !b || !/^[ -]$/.test(text.slice(a.end, b.start))) return undefined;
    if (COMMON.has(a.lower) && COMMON.has(b.lower)) return undefined;
    // Either half being a drug (or nearly one) on its own means two words were meant.
    if ([a.lower, b.lower].some((w) => exact.has(w) || closest(w, 1))) return undefined;
    const joined = a.lower + b.lower;
    for (const drug of drugs) {
      if (drug.words !== 1) continue;
      if (joined === drug.lower || (closest(joined, 1) === drug.name && editDistance(joined, drug.lower) / drug.lower.length <= 0.25)) {
        return { start: a.start, end: b.end, name: drug.name };
      }
    }
    return undefined;
  }

  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.name + out.slice(e.end);
  return out;
}
