/**
 * ROUGE as the ACI-Bench paper reports it (rouge-score's defaults): lower-case alphanumeric
 * tokens, F-measure, no stemming; ROUGE-N, ROUGE-L over the whole text, and ROUGE-Lsum
 * (summary-level LCS over sentences, the paper's "ROUGE-L"). Pure; used by scripts/eval-notes.ts.
 */

/** ROUGE tokens: lower-case alphanumeric runs (as rouge-score's default tokenizer). */
export function tokens(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').filter(Boolean);
}

function ngrams(t: string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= t.length; i++) {
    const g = t.slice(i, i + n).join(' ');
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

function fMeasure(overlap: number, candTotal: number, refTotal: number): number {
  if (overlap === 0 || candTotal === 0 || refTotal === 0) return 0;
  const p = overlap / candTotal;
  const r = overlap / refTotal;
  return (2 * p * r) / (p + r);
}

/** ROUGE-N F-measure. */
export function rougeN(candidate: string[], reference: string[], n: number): number {
  const c = ngrams(candidate, n);
  const r = ngrams(reference, n);
  let overlap = 0;
  for (const [g, count] of c) overlap += Math.min(count, r.get(g) ?? 0);
  return fMeasure(overlap, Math.max(0, candidate.length - n + 1), Math.max(0, reference.length - n + 1));
}

/** ROUGE-L F-measure from the longest common subsequence. */
export function rougeL(candidate: string[], reference: string[]): number {
  const m = candidate.length;
  const n = reference.length;
  let prev = new Uint32Array(n + 1);
  let cur = new Uint32Array(n + 1);
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) cur[j] = candidate[i - 1] === reference[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    [prev, cur] = [cur, prev];
  }
  return fMeasure(prev[n]!, m, n);
}

function lcsTable(a: string[], b: string[]): Uint16Array[] {
  const t = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
  return t;
}

/** Sentences for ROUGE-Lsum: lines and sentence ends, each tokenised. */
export function sentenceTokens(text: string): string[][] {
  return text.split(/\n+|(?<=[.?!])\s+/).map(tokens).filter((s) => s.length > 0);
}

/** ROUGE-Lsum (summary-level LCS, the variant the ACI-Bench paper reports as ROUGE-L). */
export function rougeLsum(candidate: string[][], reference: string[][]): number {
  const count = (sents: string[][]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const s of sents) for (const w of s) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const cc = count(candidate);
  const rc = count(reference);
  let hits = 0;
  for (const r of reference) {
    const union = new Set<number>();
    for (const c of candidate) {
      const t = lcsTable(r, c);
      let i = r.length;
      let j = c.length;
      while (i > 0 && j > 0) {
        if (r[i - 1] === c[j - 1]) {
          union.add(i - 1);
          i--;
          j--;
        } else if (t[i - 1]![j]! >= t[i]![j - 1]!) i--;
        else j--;
      }
    }
    for (const idx of union) {
      const w = r[idx]!;
      if ((cc.get(w) ?? 0) > 0 && (rc.get(w) ?? 0) > 0) {
        hits++;
        cc.set(w, cc.get(w)! - 1);
        rc.set(w, rc.get(w)! - 1);
      }
    }
  }
  const total = (s: string[][]): number => s.reduce((n, x) => n + x.length, 0);
  return fMeasure(hits, total(candidate), total(reference));
}
