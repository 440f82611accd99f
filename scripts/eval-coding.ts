/**
 * Quality of the embedded ICD-10-CM coder.
 *
 * 1. On the independent labels of ACI-Bench reference notes (`aci-bench-coding/` of the data-set
 *    folder), per split with the held-out test2 first: full-code and category P/R/F1, the primary
 *    diagnosis at rank 1 and in the top three, codes for "must not" findings, evidence exactness,
 *    latency. valid and test1 are the tuning splits; test2 is never tuned on.
 * 2. On the project's own labelled set (`test/coding/labelled-set.json`), kept as unit cases: it was
 *    written by the coder's authors, so its figures say little about notes the coder has not seen.
 *
 * Run: npm run eval:coding [-- --verbose]   (--verbose lists the misses of valid and test1 only)
 *      npm run eval:coding -- --engine NAME [--max N]   (an installed or configured language model's
 *      proposals added, as an account that chose it gets them; scripts/eval-coding-engine.ts)
 *      npm run eval:coding -- --tuning [--verbose] [--dialogues]   (valid and test1 only, while tuning:
 *      the held-out split is not even coded, and the dialogues only when asked)
 */
import { loadCodeTable } from '../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../main/engines/coding/lexicon-file.js';
import { createIcdCoder, WARM_UP, type IcdCoder } from '../main/services/coding/icd-coder.js';
import { ACI_SPLITS, outsideLabelScope, readAciCases, scoreAci, type AciCase, type AciScore, type RankedAnswer } from './aci-coding.js';
import { readLabelledSet, score, type Prediction, type Score } from './coding-scoring.js';
import { answersWithEngine, engineCases } from './eval-coding-engine.js';
import { engineArg } from './eval-engine.js';

const t0 = performance.now();
const table = loadCodeTable();
if (!table) {
  console.log('no ICD-10-CM code set found (resources/codes): run scripts/build-icd10cm.ts first');
  process.exit(0);
}
const coder = createIcdCoder(table, readCodingLexicon());
const verbose = process.argv.includes('--verbose');
const tuning = process.argv.includes('--tuning');
const pct = (x: number): string => (Number.isNaN(x) ? '    -' : (100 * x).toFixed(1).padStart(5));

function answer(c: { id: string }, text: string, run: IcdCoder['analyze']): RankedAnswer {
  const s = performance.now();
  const codes = run(text).codes;
  return { id: c.id, codes: codes.map((x) => ({ code: x.code, confidence: x.confidence, evidence: x.evidence })), ms: performance.now() - s };
}

function aciTable(title: string, cases: AciCase[], answers: RankedAnswer[], text: 'note' | 'dialogue'): Map<string, AciScore> {
  console.log(`\n${title}`);
  console.log('| split | cases | full P | full R | full F1 | cat P | cat R | cat F1 | primary@1 | primary@3 | must-not | unscored | spans exact | evidence agrees | p50 ms | p95 ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  const out = new Map<string, AciScore>();
  for (const split of [...ACI_SPLITS.filter((x) => !tuning || x !== 'test2'), 'valid+test1'] as const) {
    const list = cases.filter((c) => (split === 'valid+test1' ? c.split !== 'test2' : c.split === split));
    const s = scoreAci(list, answers, text);
    out.set(split, s);
    // unscored: codes the labelling rules leave out (Z79 long-term drug use, external causes).
    console.log(
      `| ${split}${split === 'test2' ? ' (held out)' : ''} | ${s.cases} | ${pct(s.full.precision)} | ${pct(s.full.recall)} | ${pct(s.full.f1)} | ${pct(s.category.precision)} | ${pct(s.category.recall)} | ${pct(s.category.f1)} | ${pct(s.hit1)} | ${pct(s.hit3)} | ${s.mustNot} | ${s.unscored} | ${pct(s.spansExact)} | ${pct(s.evidenceAgrees)} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} |`,
    );
  }
  return out;
}

/** Misses of the tuning splits only: the held-out split is never read case by case. */
function listMisses(cases: AciCase[], answers: RankedAnswer[], scores: Map<string, AciScore>): void {
  console.log('\nTuning splits (valid, test1): misses, extras, primary');
  for (const c of cases.filter((x) => x.split !== 'test2')) {
    const got = answers.find((a) => a.id === c.id)!.codes.map((x) => x.code);
    const gold = c.codes.map((x) => x.code);
    const missing = gold.filter((g) => !got.includes(g));
    const extra = got.filter((g) => !gold.includes(g));
    const primary = c.codes.find((x) => x.primary)!.code;
    if (missing.length || extra.length || got[0] !== primary) console.log(`${c.id} ${c.split} primary ${primary} got [${got.join(' ')}] missing [${missing.join(' ')}] extra [${extra.join(' ')}]`);
  }
  for (const split of ['valid', 'test1']) for (const h of scores.get(split)!.mustNotHits) console.log(`must-not: ${h}`);
}

/**
 * Calibration on the independent labels: for every scored suggestion, its confidence against
 * whether the code is labelled; for the first-ranked one, its confidence against whether it is the
 * labelled primary (the share of hits should match the mean confidence in each bucket).
 */
function aciCalibration(title: string, cases: AciCase[], answers: RankedAnswer[]): void {
  const buckets = [0, 0.5, 0.7, 0.8, 0.9, 1.01];
  const rows = buckets.slice(0, -1).map((from, i) => ({ from, to: buckets[i + 1]!, n: 0, right: 0, conf: 0, n1: 0, primary: 0, conf1: 0 }));
  const at = (x: number) => rows.find((r) => x >= r.from && x < r.to)!;
  let brier = 0;
  for (const c of cases) {
    const a = answers.find((x) => x.id === c.id)!;
    const scored = a.codes.filter((x) => !outsideLabelScope(x.code));
    for (const x of scored) {
      const r = at(x.confidence);
      r.n++;
      r.conf += x.confidence;
      if (c.codes.some((g) => g.code === x.code)) r.right++;
    }
    const top = scored[0];
    const isPrimary = !!top && c.codes.find((g) => g.primary)?.code === top.code;
    brier += ((top?.confidence ?? 0) - (isPrimary ? 1 : 0)) ** 2;
    if (!top) continue;
    const r = at(top.confidence);
    r.n1++;
    r.conf1 += top.confidence;
    if (isPrimary) r.primary++;
  }
  console.log(`\n${title}: confidence bucket -> share labelled (all codes) and share that is the labelled primary (first-ranked code); Brier score of the first-ranked code as the primary ${(brier / cases.length).toFixed(3)}`);
  console.log('| confidence | codes | mean confidence | labelled | first-ranked | mean confidence | primary |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.from.toFixed(2)}-${Math.min(1, r.to).toFixed(2)} | ${r.n} | ${pct(r.n ? r.conf / r.n : NaN)} | ${pct(r.n ? r.right / r.n : NaN)} | ${r.n1} | ${pct(r.n1 ? r.conf1 / r.n1 : NaN)} | ${pct(r.n1 ? r.primary / r.n1 : NaN)} |`);
}

const aci = readAciCases()?.filter((c) => !tuning || c.split !== 'test2');
const engine = engineArg();
if (!aci) console.log('ACI-Bench coding labels not found (aci-bench-coding/, aci-bench/ under CLINDOC_EVAL_DATA): skipping them');
else if (engine && engine !== 'embedded') {
  // A language model as an account would use it: the embedded codes plus the model's checked proposals.
  const at = process.argv.indexOf('--max');
  const cases = engineCases(aci, at > 0 ? Number(process.argv[at + 1]) : 7);
  const answers = await answersWithEngine(engine, cases, coder, table);
  if (answers) aciTable(`ACI-Bench reference notes, coder with ${engine}'s proposals (first ${cases.length} labelled notes; test2 held out)`, cases, answers, 'note');
  process.exit(0);
} else {
  const startup = performance.now() - t0;
  const w = performance.now();
  for (const w of WARM_UP) coder.analyze(w);
  const first = performance.now() - w;
  const fromNotes = aci.map((c) => answer(c, c.note, coder.analyze));
  console.log(`ICD-10-CM ${table.edition}, embedded coder; table and coder ready in ${startup.toFixed(0)} ms, first analysis (builds the title index) ${first.toFixed(0)} ms`);
  const scores = aciTable('ACI-Bench reference notes (independent labels; test2 held out, never tuned on)', aci, fromNotes, 'note');
  aciCalibration('Calibration on the tuning splits (valid, test1)', aci.filter((c) => c.split !== 'test2'), fromNotes);
  if (!tuning) aciCalibration('Calibration on the held-out split (test2)', aci.filter((c) => c.split === 'test2'), fromNotes);
  if (verbose) listMisses(aci, fromNotes, scores);
  if (tuning && !process.argv.includes('--dialogues')) process.exit(0);
  const fromDialogues = aci.map((c) => answer(c, c.dialogue, coder.analyzeTranscript));
  const dialogueScores = aciTable('ACI-Bench dialogues, coded from the conversation (labels of their reference notes)', aci, fromDialogues, 'dialogue');
  if (verbose && process.argv.includes('--dialogues')) listMisses(aci, fromDialogues, dialogueScores);
}

const cases = readLabelledSet();
const predictions: Prediction[] = cases.map((c) => ({ id: c.id, codes: coder.analyze(c.text).codes.map((s) => ({ code: s.code, confidence: s.confidence })) }));
const line = (name: string, s: Score): string =>
  `| ${name} | ${s.cases} | ${pct(s.full.precision)} | ${pct(s.full.recall)} | ${pct(s.full.f1)} | ${pct(s.category.precision)} | ${pct(s.category.recall)} | ${pct(s.category.f1)} | ${s.fromNegated} |`;
console.log(`\nProject's own labelled set (${cases.length} cases, written with the coder: unit cases, not a measure of quality)`);
console.log('| split | cases | full P | full R | full F1 | cat P | cat R | cat F1 | negated |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, list] of [['tune', cases.filter((c) => c.split === 'tune')], ['heldout', cases.filter((c) => c.split === 'heldout')], ['all', cases]] as const) {
  console.log(line(name, score(list, predictions)));
}
const all = score(cases, predictions);
console.log('\nCalibration (own set): confidence bucket -> share of suggestions that were right');
console.log('| confidence | suggestions | right | accuracy |');
console.log('|---|---|---|---|');
for (const r of all.calibration) console.log(`| ${r.from.toFixed(2)}-${r.to.toFixed(2)} | ${r.count} | ${r.correct} | ${pct(r.accuracy)} |`);
