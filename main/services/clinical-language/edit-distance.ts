/**
 * Edit distance over strings (letters) or arrays (words, tokens): Levenshtein, optionally
 * counting a swapped adjacent pair as one edit (optimal string alignment), optionally giving
 * up early once the distance must exceed a bound. One implementation for spelling correction,
 * macro matching and word error rate.
 */

/** Options for {@link editDistance}. */
export interface EditDistanceOptions {
  /**
   * Count an adjacent transposition ("lisinporil") as one edit: optimal string alignment.
   * Default true; word error rate wants false (plain Levenshtein).
   */
  transpositions?: boolean;
  /**
   * Stop as soon as the distance must exceed this bound and return `max + 1`; saves work when
   * only "within k edits?" matters. Default: no bound.
   */
  max?: number;
}

/**
 * Number of insertions, deletions and substitutions (and, by default, adjacent swaps) that
 * turn `a` into `b`. Elements are compared with `===`, so strings compare letters and arrays
 * compare their items (words for word error rate).
 */
export function editDistance<T>(a: ArrayLike<T>, b: ArrayLike<T>, options: EditDistanceOptions = {}): number {
  const transpositions = options.transpositions ?? true;
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0) return m;
  if (m === 0) return n;
  // Three rolling rows: the transposition step looks two rows back.
  let prev2 = new Int32Array(m + 1);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const bj = b[j - 1];
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (transpositions && i > 1 && j > 1 && ai === b[j - 2] && a[i - 2] === bj) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return prev[m]!;
}

/** Edit distance divided by the longer length: 0 identical, 1 nothing in common. */
export function editRatio<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : editDistance(a, b) / longest;
}

/** All strings obtained by deleting one character (the symmetric-delete index of SymSpell). */
export function singleDeletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}
