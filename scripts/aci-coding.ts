/**
 * The independent ICD-10-CM labels of 100 ACI-Bench reference notes
 * (`aci-bench-coding/labels.jsonl` of the data-set folder) joined to their notes and dialogues,
 * and their scoring: full-code and category P/R/F1, the primary diagnosis at rank 1 and in the
 * top three, codes suggested for "must not" findings, evidence exactness and latency.
 * valid and test1 are the tuning splits; test2 is held out and is never looked at case by case.
 * Codes the labelling rules leave out (Z79 long-term drug use, external causes) are not scored.
 */
import { existsSync, readFileSync } from 'node:fs';
import { prf, type Prf } from './coding-scoring.js';
import { readCsv } from './csv.js';
import { evalDataPath } from './eval-data.js';

export type AciSplit = 'valid' | 'test1' | 'test2';
/** The held-out split first: it is the figure the README reports. */
export const ACI_SPLITS: readonly AciSplit[] = ['test2', 'valid', 'test1'];

const FILES: Record<string, { split: AciSplit; csv: string }> = {
  valid: { split: 'valid', csv: 'valid.csv' },
  clinicalnlp_taskB_test1: { split: 'test1', csv: 'clinicalnlp_taskB_test1.csv' },
  clinicalnlp_taskC_test2: { split: 'test2', csv: 'clinicalnlp_taskC_test2.csv' },
};

export interface AciCase {
  id: string;
  split: AciSplit;
  note: string;
  dialogue: string;
  codes: { code: string; primary: boolean; evidence: string }[];
  mustNot: { code: string; reason: string; evidence: string }[];
}

/** The labelled encounters with their texts, or undefined when the data sets are not there. */
export function readAciCases(): AciCase[] | undefined {
  const labels = evalDataPath('aci-bench-coding', 'labels.jsonl');
  if (!existsSync(labels)) return undefined;
  const texts = new Map<string, { note: string; dialogue: string }>();
  for (const { csv } of Object.values(FILES)) {
    const path = evalDataPath('aci-bench', csv);
    if (!existsSync(path)) return undefined;
    for (const row of readCsv(path)) texts.set(`${csv}|${row.encounter_id}`, { note: row.note ?? '', dialogue: row.dialogue ?? '' });
  }
  const out: AciCase[] = [];
  for (const line of readFileSync(labels, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const l = JSON.parse(line) as { id: string; split: string; codes: AciCase['codes']; must_not: AciCase['mustNot'] };
    const file = FILES[l.split];
    const text = file && texts.get(`${file.csv}|${l.id}`);
    if (!file || !text) continue;
    out.push({ id: l.id, split: file.split, ...text, codes: l.codes.map((c) => ({ code: c.code, primary: c.primary, evidence: c.evidence })), mustNot: l.must_not });
  }
  return out;
}

/** One coder answer: ICD-10-CM codes in rank order with their evidence (code points of the text analysed). */
export interface RankedAnswer {
  id: string;
  codes: { code: string; confidence: number; evidence: { start_char: number; end_char: number; text: string }[] }[];
  /** Wall time of the analysis. */
  ms: number;
}


export interface AciScore {
  cases: number;
  full: Prf;
  category: Prf;
  /** Share of encounters whose labelled primary code is ranked first / in the first three. */
  hit1: number;
  hit3: number;
  /** Suggested codes that fall under a "must not" entry (negated, uncertain, ruled out, family, past only). */
  mustNot: number;
  mustNotHits: string[];
  /** Suggested codes outside the labels' scope (Z79, external causes): not scored. */
  unscored: number;
  /** Share of evidence spans whose text is exactly the analysed text at their offsets. */
  spansExact: number;
  /** Of the correct codes, the share whose evidence overlaps the labelled evidence quote (notes only). */
  evidenceAgrees: number;
  p50: number;
  p95: number;
}


/** A "must not" code without the dot is a heading; one shorter than billable covers the codes under it. */
export const underMustNot = (code: string, mustNot: string): boolean => code.replace('.', '').startsWith(mustNot.replace('.', ''));

/**
 * Codes the labelling rules leave out ("Long-term drug-use Z79 codes and external-cause codes are not
 * labelled"): neither right nor wrong against these labels, so not scored; counted apart.
 */
export const outsideLabelScope = (code: string): boolean => /^(Z79|[V-Y])/.test(code);

const quantile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : NaN;
};

/** Where a verbatim quote sits in a text, in code points (whitespace-insensitive), or undefined. */
function locate(text: string, quote: string): { start: number; end: number } | undefined {
  const at = text.indexOf(quote);
  if (at >= 0) return { start: [...text.slice(0, at)].length, end: [...text.slice(0, at)].length + [...quote].length };
  return undefined;
}

/** Scores answers against the labels of the cases they answer (`text` picks which text the offsets refer to). */
export function scoreAci(cases: readonly AciCase[], answers: readonly RankedAnswer[], text: 'note' | 'dialogue'): AciScore {
  const byId = new Map(answers.map((a) => [a.id, a]));
  let f = [0, 0, 0];
  let c3 = [0, 0, 0];
  let hit1 = 0;
  let hit3 = 0;
  const mustNotHits: string[] = [];
  let spans = 0;
  let exact = 0;
  let tpCodes = 0;
  let agree = 0;
  let unscored = 0;
  for (const c of cases) {
    const a = byId.get(c.id);
    const all = [...new Set((a?.codes ?? []).map((x) => x.code))];
    const got = all.filter((x) => !outsideLabelScope(x));
    unscored += all.length - got.length;
    const gold = new Set(c.codes.map((x) => x.code));
    f = [f[0]! + got.filter((x) => gold.has(x)).length, f[1]! + got.filter((x) => !gold.has(x)).length, f[2]! + [...gold].filter((x) => !got.includes(x)).length];
    const gc = new Set(c.codes.map((x) => x.code.slice(0, 3)));
    const pc = new Set(got.map((x) => x.slice(0, 3)));
    c3 = [c3[0]! + [...pc].filter((x) => gc.has(x)).length, c3[1]! + [...pc].filter((x) => !gc.has(x)).length, c3[2]! + [...gc].filter((x) => !pc.has(x)).length];
    const primary = c.codes.find((x) => x.primary)?.code;
    if (primary && got[0] === primary) hit1++;
    if (primary && got.slice(0, 3).includes(primary)) hit3++;
    for (const g of got) {
      const m = c.mustNot.find((x) => underMustNot(g, x.code));
      if (m && !gold.has(g)) mustNotHits.push(`${c.id} ${g} (${m.reason})`);
    }
    const analysed = [...(text === 'note' ? c.note : c.dialogue)];
    for (const s of a?.codes ?? []) {
      for (const e of s.evidence) {
        spans++;
        if (analysed.slice(e.start_char, e.end_char).join('') === e.text) exact++;
      }
      const label = c.codes.find((x) => x.code === s.code);
      if (!label || text !== 'note') continue;
      tpCodes++;
      const where = locate(c.note, label.evidence);
      if (where && s.evidence.some((e) => e.start_char < where.end && e.end_char > where.start)) agree++;
    }
  }
  const ms = cases.map((c) => byId.get(c.id)?.ms ?? NaN).filter((x) => !Number.isNaN(x));
  return {
    cases: cases.length, full: prf(f[0]!, f[1]!, f[2]!), category: prf(c3[0]!, c3[1]!, c3[2]!),
    hit1: cases.length ? hit1 / cases.length : NaN, hit3: cases.length ? hit3 / cases.length : NaN,
    mustNot: mustNotHits.length, mustNotHits, unscored, spansExact: spans ? exact / spans : NaN, evidenceAgrees: tpCodes ? agree / tpCodes : NaN,
    p50: quantile(ms, 0.5), p95: quantile(ms, 0.95),
  };
}
