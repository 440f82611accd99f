/**
 * Quality of the embedded ICD-10-CM coder on the labelled set written for Clindoc
 * (`test/coding/labelled-set.json`): precision, recall and F1 at full-code and 3-character
 * category level, the count of codes suggested for negated or ruled-out findings, and a
 * calibration table (confidence bucket -> share of those suggestions that were right). The
 * held-out split was written before the coder and is never used to tune it: its figures are
 * printed apart from the tuning split's.
 *
 * Run: npm run eval:coding [-- --verbose]   (--verbose lists the tuning split's misses)
 */
import { loadCodeTable } from '../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../main/services/coding/icd-coder.js';
import { readLabelledSet, score, type Prediction, type Score } from './coding-scoring.js';

const table = loadCodeTable();
if (!table) {
  console.log('no ICD-10-CM code set found (resources/codes): run scripts/build-icd10cm.ts first');
  process.exit(0);
}
const coder = createIcdCoder(table, readCodingLexicon());
const cases = readLabelledSet();
const predictions: Prediction[] = cases.map((c) => ({ id: c.id, codes: coder.analyze(c.text).codes.map((s) => ({ code: s.code, confidence: s.confidence })) }));

const pct = (x: number): string => (Number.isNaN(x) ? '   -' : (100 * x).toFixed(1).padStart(5));
const line = (name: string, s: Score): string =>
  `| ${name.padEnd(8)} | ${String(s.cases).padStart(5)} | ${pct(s.full.precision)} | ${pct(s.full.recall)} | ${pct(s.full.f1)} | ${pct(s.category.precision)} | ${pct(s.category.recall)} | ${pct(s.category.f1)} | ${String(s.fromNegated).padStart(7)} |`;

console.log(`ICD-10-CM ${table.edition}, embedded coder, ${cases.length} labelled cases`);
console.log('| split    | cases | full P | full R | full F1 | cat P | cat R | cat F1 | negated |');
console.log('|---|---|---|---|---|---|---|---|---|');
const splits: [string, typeof cases][] = [
  ['tune', cases.filter((c) => c.split === 'tune')],
  ['heldout', cases.filter((c) => c.split === 'heldout')],
  ['all', cases],
];
const scores = new Map(splits.map(([name, list]) => [name, score(list, predictions)]));
for (const [name] of splits) console.log(line(name, scores.get(name)!));

console.log('\nCalibration (all cases): confidence bucket -> share of suggestions that were right');
console.log('| confidence | suggestions | right | accuracy |');
console.log('|---|---|---|---|');
for (const r of scores.get('all')!.calibration) {
  console.log(`| ${r.from.toFixed(2)}-${r.to.toFixed(2)} | ${r.count} | ${r.correct} | ${pct(r.accuracy)} |`);
}

if (process.argv.includes('--verbose')) {
  console.log('\nTuning split, cases with a miss or an extra code:');
  for (const c of cases.filter((x) => x.split === 'tune' || process.argv.includes('--all'))) {
    const got = predictions.find((p) => p.id === c.id)!.codes.map((x) => x.code);
    const missing = c.gold.filter((g) => !got.includes(g));
    const extra = got.filter((g) => !c.gold.includes(g));
    if (missing.length || extra.length) console.log(`${c.id} missing [${missing.join(' ')}] extra [${extra.join(' ')}]  ${c.text.replace(/\s+/g, ' ').slice(0, 110)}`);
  }
}
