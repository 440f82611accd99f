/**
 * Writes the embedded coder's answers for N ACI-Bench encounters to a folder, one folder an
 * encounter, for a coder to read case by case: the text coded (reference note or dialogue), the
 * suggested codes with rank, confidence, the rule that chose each and its evidence, and a
 * README with the reading brief. The labels are written separately (labels.md) so that a
 * reader judges before looking.
 *
 * Run: npx tsx scripts/eval-coding-dump.ts DIR [--split test1] [--n 12] [--dialogues]
 * Tune on valid and test1 only; test2 is the held-out split (dump it only for a final reading).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadCodeTable } from '../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../main/services/coding/icd-coder.js';
import { readAciCases } from './aci-coding.js';

const program = new Command()
  .argument('<dir>', 'where to write the encounters')
  .option('--split <split>', 'valid, test1 or test2', 'test1')
  .option('--n <n>', 'how many encounters', '12')
  .option('--dialogues', 'code the dialogue instead of the reference note')
  .parse();
const [dir] = program.args as [string];
const opts = program.opts<{ split: string; n: string; dialogues?: boolean }>();

const table = loadCodeTable();
const cases = readAciCases();
if (!table || !cases) {
  console.log(!table ? 'no ICD-10-CM code set found (resources/codes): run scripts/build-icd10cm.ts first' : 'ACI-Bench coding labels not found under CLINDOC_EVAL_DATA: skipping');
  process.exit(0);
}
const coder = createIcdCoder(table, readCodingLexicon());
const chosen = cases.filter((c) => c.split === opts.split).slice(0, Number(opts.n));
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'README.md'), [
  `# Coder reading: ${chosen.length} ACI-Bench ${opts.split} encounters, coded from the ${opts.dialogues ? 'dialogue' : 'reference note'}`,
  '',
  'Read each `text.txt` as the certified outpatient coder (ICD-10-CM FY2021, outpatient guidelines) who must',
  'accept or reject `codes.md` before the claim goes out. Judge first, then open `labels.md` (an independent',
  "coder's labels) only to check. Per encounter: codes you would accept, codes you would reject (and why:",
  'wrong code, unsupported, uncertain/ruled-out/family/past coded as current, wrong specificity or side,',
  'symptom coded beside its diagnosis), codes missing, whether the first-ranked code is the right primary, and',
  "whether each code's evidence and rule would satisfy an auditor.",
].join('\n') + '\n');
chosen.forEach((c, k) => {
  const sub = join(dir, `${String(k + 1).padStart(2, '0')}-${c.id}`);
  mkdirSync(sub, { recursive: true });
  const text = opts.dialogues ? c.dialogue : c.note;
  const answer = opts.dialogues ? coder.analyzeTranscript(text) : coder.analyze(text);
  writeFileSync(join(sub, 'text.txt'), text);
  writeFileSync(join(sub, 'codes.md'), answer.codes.length === 0 ? 'No codes suggested.\n' : answer.codes.map((s) => [
    `${s.rank}. ${s.code} ${s.display} (confidence ${s.confidence.toFixed(2)}, ${s.role})`,
    `   rule: ${s.rule}`,
    ...s.evidence.map((e) => `   evidence: "${e.text.replace(/\s+/g, " ")}"`),
  ].join('\n')).join('\n') + '\n');
  writeFileSync(join(sub, 'labels.md'), [
    ...c.codes.map((l) => `- ${l.code}${l.primary ? ' (primary)' : ''}: "${l.evidence}"`),
    ...c.mustNot.map((m) => `- must not: ${m.code} (${m.reason}): "${m.evidence}"`),
  ].join('\n') + '\n');
});
console.log(`wrote ${chosen.length} encounters to ${dir}`);
