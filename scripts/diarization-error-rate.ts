/**
 * Diarization error rate (DER), the figure scripts/eval-diarization.ts reports. It scores the
 * product's diarization; the product itself never computes it, so it lives with the scripts.
 */
import type { SpeakerTurn } from '../main/services/transcriptions/ports.js';

/** `der` = (missed + falseAlarm + confusion) / total (0 without reference speech); the rest in seconds. */
export interface DerBreakdown { der: number; missed: number; falseAlarm: number; confusion: number; total: number }

/**
 * Diarization error rate, NIST-style, on a 10 ms grid: the hypothesis speakers are mapped to the
 * reference speakers by the one-to-one mapping with the most overlap, and `collar` seconds
 * (default 0.25) either side of every reference boundary are not scored. Overlapped reference
 * speech counts each speaker.
 */
export function diarizationErrorRate(reference: SpeakerTurn[], hypothesis: SpeakerTurn[], options: { collar?: number } = {}): DerBreakdown {
  const step = 0.01;
  const collar = options.collar ?? 0.25;
  const endT = Math.max(0, ...reference.map((t) => t.end), ...hypothesis.map((t) => t.end));
  const n = Math.ceil(endT / step);
  const active = (turns: SpeakerTurn[], t: number): number[] => [...new Set(turns.filter((x) => t >= x.start && t < x.end).map((x) => x.speaker))];
  const scored = (t: number): boolean => !reference.some((r) => Math.abs(t - r.start) < collar || Math.abs(t - r.end) < collar);
  const refIds = [...new Set(reference.map((t) => t.speaker))];
  const hypIds = [...new Set(hypothesis.map((t) => t.speaker))];
  const frames: Array<{ ref: number[]; hyp: number[] }> = [];
  const overlap = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const t = (i + 0.5) * step;
    if (!scored(t)) continue;
    const f = { ref: active(reference, t), hyp: active(hypothesis, t) };
    frames.push(f);
    for (const r of f.ref) for (const h of f.hyp) overlap.set(`${h}:${r}`, (overlap.get(`${h}:${r}`) ?? 0) + 1);
  }
  const mapping = bestMapping(hypIds, refIds, (h, r) => overlap.get(`${h}:${r}`) ?? 0);
  let [missed, falseAlarm, confusion, total] = [0, 0, 0, 0];
  for (const f of frames) {
    const nr = f.ref.length;
    const nh = f.hyp.length;
    const correct = f.hyp.filter((h) => mapping.has(h) && f.ref.includes(mapping.get(h)!)).length;
    total += nr;
    missed += Math.max(0, nr - nh);
    falseAlarm += Math.max(0, nh - nr);
    confusion += Math.min(nr, nh) - correct;
  }
  const s = (x: number): number => x * step;
  return { der: total ? (missed + falseAlarm + confusion) / total : 0, missed: s(missed), falseAlarm: s(falseAlarm), confusion: s(confusion), total: s(total) };
}

/** One-to-one mapping with the most total score: exhaustive for up to 7 hypothesis speakers, greedy beyond. */
function bestMapping(hyp: number[], ref: number[], score: (h: number, r: number) => number): Map<number, number> {
  if (hyp.length > 7) {
    const m = new Map<number, number>();
    const pairs = hyp.flatMap((h) => ref.map((r) => ({ h, r, s: score(h, r) }))).sort((a, b) => b.s - a.s);
    for (const p of pairs) if (!m.has(p.h) && ![...m.values()].includes(p.r)) m.set(p.h, p.r);
    return m;
  }
  let best = new Map<number, number>();
  let bestScore = -1;
  const walk = (i: number, used: Set<number>, current: Map<number, number>, sc: number): void => {
    if (i === hyp.length) {
      if (sc > bestScore) [bestScore, best] = [sc, new Map(current)];
      return;
    }
    walk(i + 1, used, current, sc); // this hypothesis speaker maps to no one
    for (const r of ref) {
      if (used.has(r)) continue;
      used.add(r);
      current.set(hyp[i]!, r);
      walk(i + 1, used, current, sc + score(hyp[i]!, r));
      current.delete(hyp[i]!);
      used.delete(r);
    }
  };
  walk(0, new Set(), new Map(), 0);
  return best;
}
