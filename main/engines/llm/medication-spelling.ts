/**
 * Corrects misspelt or mis-heard drug names in model-written text against the caller's
 * `medicationList`: edit distance scaled to the word's length, or the same sound key
 * ("zirtek" / "Zyrtec"). Only words close to a listed drug change; nothing else is touched.
 */

/** Splits the comma-separated list into unique, non-empty names. */
export function parseMedicationList(list: string | undefined): string[] {
  if (!list) return [];
  const seen = new Set<string>();
  return list
    .split(/[,;\n]/)
    .map((m) => m.trim())
    .filter((m) => m.length >= 3 && !seen.has(m.toLowerCase()) && seen.add(m.toLowerCase()));
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transposition). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** A rough English sound key for drug names: spelling variants that sound alike share it. */
export function soundKey(word: string): string {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  w = w
    .replace(/^x/, 's')
    .replace(/ph/g, 'f')
    .replace(/qu/g, 'kw')
    .replace(/c(?=[eiy])/g, 's')
    .replace(/ck|c|q/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/z/g, 's')
    .replace(/y/g, 'i')
    .replace(/th/g, 't')
    .replace(/(.)\1+/g, '$1');
  return w.charAt(0) + w.slice(1).replace(/[aeiouh]/g, '');
}

const allowedDistance = (length: number): number => (length < 5 ? 0 : length <= 6 ? 1 : length <= 10 ? 2 : 3);

/** Whether `candidate` (one or more words from the text) is plausibly a misspelling of `drug`. */
export function isVariantOf(candidate: string, drug: string): boolean {
  const c = candidate.toLowerCase();
  const m = drug.toLowerCase();
  if (c === m) return false;
  if (c.length < 4 || Math.abs(c.length - m.length) > Math.max(2, m.length * 0.3)) return false;
  if (editDistance(c, m) <= allowedDistance(m.length)) return c[0] === m[0] || soundKey(c)[0] === soundKey(m)[0];
  return m.length >= 5 && soundKey(c) === soundKey(m) && editDistance(c, m) <= Math.ceil(m.length / 2);
}

/**
 * Replaces misspelt drug names in `text` with the listed spelling.
 * @param text model-written note text
 * @param medications names from {@link parseMedicationList}
 */
export function correctMedicationSpelling(text: string, medications: string[]): string {
  if (medications.length === 0 || !text) return text;
  const exact = new Set(medications.map((m) => m.toLowerCase()));
  const tokens = [...text.matchAll(/[\p{L}][\p{L}'-]*/gu)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  // Longest names first so "insulin glargin" is fixed as a whole before "insulin" alone.
  const drugs = medications.map((name) => ({ name, words: name.split(/\s+/).length })).sort((a, b) => b.words - a.words);
  const edits: { start: number; end: number; name: string }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (const drug of drugs) {
      const last = tokens[i + drug.words - 1];
      if (!last) continue;
      const span = text.slice(tokens[i]!.start, last.end);
      // Multi-word candidates must be separated by plain spaces, not punctuation.
      if (drug.words > 1 && !/^[\p{L}'-]+(?:\s+[\p{L}'-]+)*$/u.test(span)) continue;
      if (exact.has(span.toLowerCase())) {
        i += drug.words - 1;
        break;
      }
      if (isVariantOf(span, drug.name)) {
        edits.push({ start: tokens[i]!.start, end: last.end, name: drug.name });
        i += drug.words - 1;
        break;
      }
    }
  }
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.name + out.slice(e.end);
  return out;
}
