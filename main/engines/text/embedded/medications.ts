/**
 * medicationList correction: misspelt or mis-heard drug names ("metforman", "lisinoprill",
 * "zantak", "lipator") become the caller's spelling. Fuzzy (Damerau-Levenshtein) plus
 * phonetic keys; common English words and words far from every listed drug are left alone.
 */

/** Parse the comma-separated medicationList into names (at most 50, as the API enforces). */
export function parseMedicationList(list: string | undefined): string[] {
  if (!list) return [];
  return [...new Set(list.split(/[,;\n]/).map((m) => m.trim()).filter((m) => m.length >= 3))];
}

/** Optimal string alignment distance (edits, with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const n = b.length;
  // Three rolling rows: the transposition step looks two rows back.
  let prev2 = new Int32Array(n + 1);
  let prev = new Int32Array(n + 1);
  let cur = new Int32Array(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

// Letters that can start the same spoken sound ("c"/"k", "z"/"s", "ph"/"f").
const SOUND_GROUP: Record<string, string> = { c: 'k', k: 'k', q: 'k', s: 's', z: 's', x: 's', f: 'f', p: 'f', j: 'j', g: 'j', a: 'a', e: 'a', i: 'a', o: 'a', u: 'a', y: 'a' };
const soundOf = (ch: string): string => SOUND_GROUP[ch] ?? ch;

/** A sound key in the spirit of Metaphone: similar-sounding spellings share a key. */
export function phoneticKey(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return '';
  w = w
    .replace(/^kn|^gn|^pn|^wr/, (m) => m[1]!)
    .replace(/^x/, 's')
    .replace(/ph/g, 'f')
    .replace(/ck/g, 'k')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/[cq]/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/z/g, 's')
    .replace(/dg/g, 'j')
    .replace(/gh/g, 'g')
    .replace(/th/g, 't')
    .replace(/y/g, 'i');
  const first = w[0]!;
  const rest = w.slice(1).replace(/[aeiouhw]/g, '');
  const key = (/[aeiou]/.test(first) ? 'a' : first) + rest;
  return key.replace(/(.)\1+/g, '$1');
}

// Frequent words a fuzzy match must never rewrite, even when they resemble a drug name.
const COMMON = new Set(
  'about above after again against always another anything around because before being below between both cannot could doing during each every feel feeling feels fever first from further great having here into itself just last later little might more most much need never night often only other over pain pill pills right same should since some still such take taking than that their them then there these they thing think this those through today together tomorrow under until very want well were what when where which while will with without would year years your yours daily dose doses twice morning evening listen lasts motion fine line mine glad plan plant plans place places plenty pressure process prostate protein proper prior problem problems patient patients person period periods pretty probably promise protect relax relaxing release stomach steroid steroids system systems metal method meeting remember sertain senior silly simple sugar sugars summer supply supper support swelling symptom symptoms tablet tablets vitamin vitamins water weather weight wheezing zinc'.split(
    ' ',
  ),
);

interface Med {
  name: string;
  lower: string;
  key: string;
}

function similar(token: string, med: Med): boolean {
  const t = token.toLowerCase();
  if (t === med.lower) return false;
  const dist = editDistance(t, med.lower);
  const ratio = dist / Math.max(t.length, med.lower.length);
  const sameKey = phoneticKey(t) === med.key;
  if (t.length < 4 || med.lower.length < 4) return dist === 1 && t[0] === med.lower[0] && t.length >= 3 && sameKey;
  if (sameKey && ratio <= 0.45) return true;
  const allowed = med.lower.length <= 5 ? 1 : med.lower.length <= 8 ? 2 : 3;
  return dist <= allowed && ratio <= 0.34 && (t[0] === med.lower[0] || phoneticKey(t[0]!) === phoneticKey(med.lower[0]!));
}

/**
 * Replace words (and two-word mishearings such as "lisa pril") that closely match a listed
 * medication with the listed spelling. Words that match nothing are returned unchanged.
 */
export function correctMedications(text: string, medicationList: string | undefined): string {
  const meds: Med[] = parseMedicationList(medicationList)
    .filter((n) => !/\s/.test(n))
    .map((name) => ({ name, lower: name.toLowerCase(), key: phoneticKey(name) }));
  const multi = parseMedicationList(medicationList).filter((n) => /\s/.test(n));
  let out = text;
  for (const name of multi) {
    // Multi-word names ("vitamin d", "fish oil"): case-insensitive exact match only.
    const re = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}\\b`, 'gi');
    out = out.replace(re, name);
  }
  if (meds.length === 0) return out;
  const exact = new Set(meds.map((m) => m.lower));
  const cache = new Map<string, Med | undefined>();
  const best = (candidate: string): Med | undefined => {
    const lower = candidate.toLowerCase();
    if (cache.has(lower)) return cache.get(lower);
    const found = search(lower);
    cache.set(lower, found);
    return found;
  };
  const search = (lower: string): Med | undefined => {
    if (exact.has(lower) || COMMON.has(lower)) return undefined;
    let found: Med | undefined;
    let bestDist = Infinity;
    for (const med of meds) {
      // Lengths too far apart can never be within the allowed distance.
      if (Math.abs(lower.length - med.lower.length) > Math.max(3, med.lower.length * 0.45)) continue;
      if (soundOf(lower[0]!) !== soundOf(med.lower[0]!) && lower[0] !== med.lower[0]) continue;
      if (!similar(lower, med)) continue;
      const d = editDistance(lower, med.lower);
      if (d < bestDist) {
        bestDist = d;
        found = med;
      }
    }
    return found;
  };
  // Two-word mishearings first, so "lisa pril" becomes one word before single-word matching.
  const words = [...out.matchAll(/[A-Za-z]{2,}/g)];
  const edits: { start: number; end: number; name: string }[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1]!;
    const gap = out.slice(a.index! + a[0].length, b.index!);
    if (!/^[ -]$/.test(gap)) continue;
    if (COMMON.has(a[0].toLowerCase()) && COMMON.has(b[0].toLowerCase())) continue;
    const joined = `${a[0]}${b[0]}`;
    const med = meds.find((m) => m.lower === joined.toLowerCase()) ?? best(joined);
    if (!med || best(a[0]) || best(b[0]) || exact.has(a[0].toLowerCase()) || exact.has(b[0].toLowerCase())) continue;
    if (editDistance(joined.toLowerCase(), med.lower) / med.lower.length > 0.25) continue;
    edits.push({ start: a.index!, end: b.index! + b[0].length, name: med.name });
    i++;
  }
  for (const e of edits.reverse()) out = `${out.slice(0, e.start)}${e.name}${out.slice(e.end)}`;
  out = out.replace(/\b[A-Za-z][A-Za-z-]{2,}\b/g, (word) => {
    const med = best(word);
    return med ? med.name : word;
  });
  // The caller's own spelling and casing for exact mentions too ("LASIX" -> "Lasix").
  for (const med of meds) out = out.replace(new RegExp(`\\b${med.lower}\\b`, 'gi'), med.name);
  return out;
}
