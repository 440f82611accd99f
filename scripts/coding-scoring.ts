/**
 * Scoring of code suggestions against the labelled set (`test/coding/labelled-set.json`):
 * precision, recall and F1 at full-code and 3-character category level, codes suggested for
 * findings the text negates or rules out, and a calibration table. Shared by
 * `npm run eval:coding` and the tests, so both report the same numbers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './eval-data.js';

export interface LabelledCase {
  id: string;
  split: 'tune' | 'heldout';
  kind: 'sentence' | 'assessment';
  text: string;
  gold: string[];
  negated: string[];
  note?: string;
}

export const LABELLED_SET_PATH = join(REPO_ROOT, 'test', 'coding', 'labelled-set.json');

export function readLabelledSet(path = LABELLED_SET_PATH): LabelledCase[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as { cases: LabelledCase[] }).cases;
}

/** What a coder answered for one case (ICD-10-CM codes only). */
export interface Prediction {
  id: string;
  codes: { code: string; confidence: number }[];
}

export interface Prf {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 from counts (nothing predicted and nothing expected counts as perfect). */
export const prf = (tp: number, fp: number, fn: number): Prf => {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  return { tp, fp, fn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
};

export interface CalibrationRow {
  from: number;
  to: number;
  count: number;
  correct: number;
  accuracy: number;
}

export interface Score {
  cases: number;
  full: Prf;
  category: Prf;
  /** Suggested codes that the case lists as negated, ruled out or uncertain. */
  fromNegated: number;
  calibration: CalibrationRow[];
}

export const BUCKETS = [0, 0.5, 0.7, 0.8, 0.9, 1.0001];

/** Scores predictions against the cases they answer (micro-averaged over codes). */
export function score(cases: readonly LabelledCase[], predictions: readonly Prediction[]): Score {
  const byId = new Map(predictions.map((p) => [p.id, p]));
  let full = [0, 0, 0];
  let cat = [0, 0, 0];
  let fromNegated = 0;
  const rows = BUCKETS.slice(0, -1).map((from, i) => ({ from, to: Math.min(1, BUCKETS[i + 1]!), count: 0, correct: 0, accuracy: 0 }));
  for (const c of cases) {
    const predicted = byId.get(c.id)?.codes ?? [];
    const gold = new Set(c.gold);
    const codes = new Set(predicted.map((p) => p.code));
    full = [full[0]! + [...codes].filter((x) => gold.has(x)).length, full[1]! + [...codes].filter((x) => !gold.has(x)).length, full[2]! + [...gold].filter((x) => !codes.has(x)).length];
    const gc = new Set(c.gold.map((x) => x.slice(0, 3)));
    const pc = new Set(predicted.map((p) => p.code.slice(0, 3)));
    cat = [cat[0]! + [...pc].filter((x) => gc.has(x)).length, cat[1]! + [...pc].filter((x) => !gc.has(x)).length, cat[2]! + [...gc].filter((x) => !pc.has(x)).length];
    fromNegated += predicted.filter((p) => c.negated.includes(p.code)).length;
    for (const p of predicted) {
      const row = rows.find((r, i) => p.confidence >= BUCKETS[i]! && p.confidence < BUCKETS[i + 1]!);
      if (!row) continue;
      row.count++;
      if (gold.has(p.code)) row.correct++;
    }
  }
  for (const r of rows) r.accuracy = r.count ? r.correct / r.count : NaN;
  return { cases: cases.length, full: prf(full[0]!, full[1]!, full[2]!), category: prf(cat[0]!, cat[1]!, cat[2]!), fromNegated, calibration: rows };
}
