/**
 * Clustering of window embeddings: average-linkage agglomeration on cosine distance, the
 * silhouette that picks a cut when the speaker count is unknown, and k-means refinement.
 */

/** 1 minus the cosine similarity (1 for a zero vector). */
export const cosineDistance = (a: Float64Array, b: Float64Array): number => {
  let [dot, na, nb] = [0, 0, 0];
  for (let i = 0; i < a.length; i++) [dot, na, nb] = [dot + a[i]! * b[i]!, na + a[i]! * a[i]!, nb + b[i]! * b[i]!];
  return 1 - dot / (Math.sqrt(na * nb) || 1);
};

/** Pairwise cosine distances. */
export const distanceMatrix = (x: Float64Array[]): number[][] => x.map((a) => x.map((b) => cosineDistance(a, b)));

/**
 * Average-linkage agglomerative clustering on a distance matrix. Returns the labels of every cut
 * from `maxK` clusters down to 1 (index k-1 holds the cut with k clusters).
 */
export function agglomerate(dist: number[][], maxK: number): number[][] {
  const n = dist.length;
  let clusters: number[][] = dist.map((_, i) => [i]);
  const cuts: number[][] = [];
  const linkage = (a: number[], b: number[]): number => {
    let s = 0;
    for (const i of a) for (const j of b) s += dist[i]![j]!;
    return s / (a.length * b.length);
  };
  const record = (): void => {
    const labels = new Array<number>(n).fill(0);
    clusters.forEach((c, ci) => c.forEach((i) => (labels[i] = ci)));
    cuts[clusters.length - 1] = labels;
  };
  if (clusters.length <= maxK) record();
  while (clusters.length > 1) {
    let best = Infinity;
    let pair: [number, number] = [0, 1];
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        const d = linkage(clusters[i]!, clusters[j]!);
        if (d < best) [best, pair] = [d, [i, j]];
      }
    }
    clusters[pair[0]] = [...clusters[pair[0]]!, ...clusters[pair[1]]!];
    clusters = clusters.filter((_, i) => i !== pair[1]);
    if (clusters.length <= maxK) record();
  }
  return cuts;
}

/** Mean silhouette of a labelling (-1 to 1; higher = tighter, better separated clusters). */
export function silhouette(dist: number[][], labels: number[]): number {
  const k = Math.max(...labels) + 1;
  if (k < 2) return 0;
  let sum = 0;
  labels.forEach((li, i) => {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    labels.forEach((lj, j) => {
      if (i === j) return;
      sums[lj]! += dist[i]![j]!;
      counts[lj]!++;
    });
    if (counts[li] === 0) return; // a singleton scores 0
    const a = sums[li]! / counts[li]!;
    const b = Math.min(...sums.map((sv, c) => (c === li || counts[c] === 0 ? Infinity : sv / counts[c]!)));
    sum += (b - a) / Math.max(a, b);
  });
  return sum / labels.length;
}

/** A few k-means passes (cosine) from the given labelling's centroids. */
export function refine(x: Float64Array[], labels: number[], k: number): number[] {
  let current = labels;
  for (let pass = 0; pass < 5; pass++) {
    const centroids = Array.from({ length: k }, () => new Float64Array(x[0]!.length));
    const counts = new Array<number>(k).fill(0);
    x.forEach((v, i) => {
      counts[current[i]!]!++;
      v.forEach((val, d) => (centroids[current[i]!]![d]! += val));
    });
    const next = x.map((v, i) => {
      let [best, bestD] = [current[i]!, Infinity];
      centroids.forEach((c, ci) => {
        const d = counts[ci] === 0 ? Infinity : cosineDistance(v, c);
        if (d < bestD) [bestD, best] = [d, ci];
      });
      return best;
    });
    if (next.every((l, i) => l === current[i])) break;
    current = next;
  }
  return current;
}
