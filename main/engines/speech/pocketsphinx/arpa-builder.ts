/**
 * A small trigram language-model builder writing ARPA text: interpolated absolute discounting
 * stored in backoff form (as SRILM writes interpolated models), so pocketsphinx reads it as is.
 * p(w|h) = max(c(hw) - D, 0) / c(h) + alpha(h) * p(w|h'), alpha(h) = D * N1+(h.) / c(h).
 */

export interface NgramCounts {
  /** n-gram (space-joined) -> count, for n = 1..3. */
  orders: [Map<string, number>, Map<string, number>, Map<string, number>];
}

export function createCounts(): NgramCounts {
  return { orders: [new Map(), new Map(), new Map()] };
}

/** Adds one sentence (already normalised words) with `<s>` and `</s>` markers. */
export function addSentence(counts: NgramCounts, words: string[]): void {
  if (words.length === 0) return;
  const s = ['<s>', ...words, '</s>'];
  for (let i = 0; i < s.length; i++) {
    for (let n = 1; n <= 3 && i + n <= s.length; n++) {
      const key = s.slice(i, i + n).join(' ');
      const m = counts.orders[n - 1];
      m.set(key, (m.get(key) ?? 0) + 1);
    }
  }
}

const log10 = (x: number): string => (x > 0 ? Math.log10(x).toFixed(4) : '-99');

/**
 * Writes the model as ARPA text. Words outside `vocabulary` are dropped with the n-grams that
 * contain them, and n-grams (n >= 2) seen fewer than `minCount` times are pruned.
 */
export function writeArpa(counts: NgramCounts, vocabulary: Set<string>, options: { discount?: number; minCount?: number } = {}): string {
  const D = options.discount ?? 0.7;
  const minCount = options.minCount ?? 2;
  const inVocab = (key: string): boolean => key.split(' ').every((w) => w === '<s>' || w === '</s>' || vocabulary.has(w));

  const uni = new Map<string, number>();
  for (const [k, c] of counts.orders[0]) if (inVocab(k)) uni.set(k, c);
  const total = [...uni.entries()].filter(([k]) => k !== '<s>').reduce((s, [, c]) => s + c, 0);
  const keep = (m: Map<string, number>): Map<string, number> => {
    const out = new Map<string, number>();
    for (const [k, c] of m) if (c >= minCount && inVocab(k)) out.set(k, c);
    return out;
  };
  const bi = keep(counts.orders[1]);
  const tri = keep(counts.orders[2]);

  // Context statistics for each order: total count and number of distinct continuations kept.
  const contextStats = (m: Map<string, number>, full: Map<string, number>): Map<string, { count: number; types: number }> => {
    const stats = new Map<string, { count: number; types: number }>();
    for (const [k, c] of full) {
      const h = k.slice(0, k.lastIndexOf(' '));
      const s = stats.get(h) ?? { count: 0, types: 0 };
      s.count += c;
      if (m.has(k)) s.types += 1;
      stats.set(h, s);
    }
    return stats;
  };
  const biCtx = contextStats(bi, counts.orders[1]);
  const triCtx = contextStats(tri, counts.orders[2]);

  const pUni = new Map<string, number>();
  for (const [w, c] of uni) pUni.set(w, w === '<s>' ? 0 : c / total);
  const alpha = (stats: Map<string, { count: number; types: number }>, h: string): number => {
    const s = stats.get(h);
    return s && s.count > 0 ? (D * s.types) / s.count : 1;
  };
  const pBi = new Map<string, number>();
  for (const [k, c] of bi) {
    const [h, w] = k.split(' ') as [string, string];
    const s = biCtx.get(h)!;
    pBi.set(k, (c - D) / s.count + alpha(biCtx, h) * (pUni.get(w) ?? 0));
  }
  const lines: string[] = [];
  const triLines: string[] = [];
  for (const [k, c] of tri) {
    const parts = k.split(' ');
    const h = parts.slice(0, 2).join(' ');
    const lower = parts.slice(1).join(' ');
    const s = triCtx.get(h)!;
    const hAlpha = alpha(biCtx, parts[1]!);
    const pLower = pBi.get(lower) ?? hAlpha * (pUni.get(parts[2]!) ?? 0);
    triLines.push(`${log10((c - D) / s.count + alpha(triCtx, h) * pLower)}\t${k}`);
  }
  lines.push('\\data\\', `ngram 1=${uni.size}`, `ngram 2=${bi.size}`, `ngram 3=${tri.size}`, '', '\\1-grams:');
  for (const w of [...uni.keys()].sort()) lines.push(`${log10(pUni.get(w)!)}\t${w}\t${log10(alpha(biCtx, w))}`);
  lines.push('', '\\2-grams:');
  for (const k of [...bi.keys()].sort()) {
    const bo = triCtx.has(k) ? `\t${log10(alpha(triCtx, k))}` : '';
    lines.push(`${log10(pBi.get(k)!)}\t${k}${bo}`);
  }
  lines.push('', '\\3-grams:', ...triLines.sort((a, b) => (a.split('\t')[1]! < b.split('\t')[1]! ? -1 : 1)), '', '\\end\\', '');
  return lines.join('\n');
}
