/**
 * The ΔBIC check that merges clusters of one voice: full-covariance Gaussians over the frames of
 * two clusters, one model against two.
 */

/** log-determinant of the covariance of `frames` (Cholesky; a tiny ridge keeps it defined). */
function logDetCovariance(frames: Float64Array[]): number {
  const d = frames[0]!.length;
  const n = frames.length;
  const mean = new Float64Array(d);
  for (const f of frames) for (let i = 0; i < d; i++) mean[i]! += f[i]! / n;
  const c = Array.from({ length: d }, () => new Float64Array(d));
  for (const f of frames) {
    for (let i = 0; i < d; i++) {
      const di = f[i]! - mean[i]!;
      for (let j = 0; j <= i; j++) c[i]![j]! += (di * (f[j]! - mean[j]!)) / n;
    }
  }
  let logDet = 0;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = c[i]![j]!;
      for (let k = 0; k < j; k++) sum -= c[i]![k]! * c[j]![k]!;
      if (i === j) {
        const v = Math.sqrt(Math.max(sum, 0) + 1e-6);
        c[i]![i] = v;
        logDet += 2 * Math.log(v);
      } else c[i]![j] = sum / c[j]![j]!;
    }
  }
  return logDet;
}

/**
 * ΔBIC between modelling two frame sets with one full-covariance Gaussian or with two: positive
 * means two voices explain the frames better than one, after the penalty for the extra model.
 */
export function deltaBic(a: Float64Array[], b: Float64Array[], lambda: number): number {
  const d = a[0]!.length;
  const n = a.length + b.length;
  const penalty = 0.5 * lambda * (d + (d * (d + 1)) / 2) * Math.log(n);
  return 0.5 * (n * logDetCovariance([...a, ...b]) - a.length * logDetCovariance(a) - b.length * logDetCovariance(b)) - penalty;
}

/**
 * Merges the pair of clusters with the lowest ΔBIC while it is negative (one voice after all).
 * `windowFrames[i]` are the frames of window i, whose cluster is `labels[i]`. Clusters of 21
 * frames or fewer are too small for a 20-dimensional covariance, so they always merge.
 */
export function mergeByBic(labels: number[], windowFrames: Float64Array[][], lambda: number): number[] {
  let current = [...labels];
  for (;;) {
    const ids = [...new Set(current)];
    if (ids.length < 2) return current;
    const framesOf = (id: number): Float64Array[] => current.flatMap((l, i) => (l === id ? windowFrames[i]! : []));
    let best = Infinity;
    let pair: [number, number] = [ids[0]!, ids[1]!];
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = framesOf(ids[i]!);
        const b = framesOf(ids[j]!);
        const v = a.length > 21 && b.length > 21 ? deltaBic(a, b, lambda) : -Infinity;
        if (v < best) [best, pair] = [v, [ids[i]!, ids[j]!]];
      }
    }
    if (best >= 0) return current;
    current = current.map((l) => (l === pair[1] ? pair[0] : l));
  }
}
