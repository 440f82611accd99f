/**
 * Coding-analysis latency: a 2,000-word visit note (history, review of systems, exam, results and
 * a long assessment and plan written from the repo's labelled set) through the full analysis
 * (ICD-10-CM coder and office E/M). Prints the start-up (reading the code table, building the
 * indexes on the warm-up notes) and the first analysis after it and warm p50/p95/max, in wall time and in CPU time of the process
 * (the second is what a loaded shared machine distorts least). Also a 2,000-word note with no
 * section headings, where every sentence is read. Never fails on time.
 * Run: npm run bench:coding [-- runs]
 */
import { loadCodeTable } from '../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../main/engines/coding/lexicon-file.js';
import { createIcdCoder, WARM_UP } from '../main/services/coding/icd-coder.js';
import { createCodingService } from '../main/services/coding/coding-service.js';
import { readLabelledSet } from '../scripts/coding-scoring.js';

const runs = Number(process.argv[2] ?? 200);
const cases = readLabelledSet();
const words = (t: string): number => t.split(/\s+/).filter(Boolean).length;

/** A long visit note: a history full of findings, then the assessment paragraphs of the labelled set. */
function visitNote(target: number): string {
  const history = cases.filter((c) => c.kind === 'sentence').map((c) => c.text);
  const assessments = cases.filter((c) => c.kind === 'assessment').map((c) => c.text.replace(/^[A-Z /]+\n/gm, ''));
  const parts = ['CHIEF COMPLAINT\nFollow-up of chronic problems.\n', 'HISTORY OF PRESENT ILLNESS'];
  let i = 0;
  while (words(parts.join('\n')) < target * 0.55) parts.push(history[i++ % history.length]!);
  parts.push('\nREVIEW OF SYSTEMS\nConstitutional: denies fever, chills or weight loss. Respiratory: denies cough. Cardiovascular: denies chest pain or palpitations.');
  parts.push('\nPHYSICAL EXAMINATION\nLungs clear to auscultation bilaterally. Heart regular rate and rhythm, no murmur. Trace bilateral lower extremity edema.');
  parts.push('\nASSESSMENT AND PLAN');
  let j = 0;
  while (words(parts.join('\n')) < target) parts.push(assessments[j++ % assessments.length]!);
  return parts.join('\n');
}

function stats(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `p50 ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
}

let t = performance.now();
const table = loadCodeTable();
if (!table) {
  console.log('no ICD-10-CM code set (resources/codes): nothing to measure');
  process.exit(0);
}
const loadMs = performance.now() - t;
t = performance.now();
const coder = createIcdCoder(table, readCodingLexicon());
// What start-up does (the compute worker too): build the indexes and compile the patterns on short warm-up notes.
for (const w of WARM_UP) coder.analyze(w);
const startMs = performance.now() - t;
const service = createCodingService({ coder: () => coder, notes: { get: async () => ({ status: 'STATUS_PENDING' }) } });
const note = visitNote(2000);
t = performance.now();
await service.analyzeText(note);
const firstMs = performance.now() - t;
const plain = visitNote(2000).replace(/^[A-Z][A-Z /]+$/gm, '');

console.log(`ICD-10-CM ${table.edition}: ${table.counts.billable} billable codes`);
console.log(`start-up: read code table ${loadMs.toFixed(0)} ms; indexes and warm-up ${startMs.toFixed(0)} ms; first analysis after start (2,000 words) ${firstMs.toFixed(0)} ms`);
for (const [name, text] of [['visit note with sections', note], ['same note without headings', plain]] as const) {
  const ms: number[] = [];
  const cpu: number[] = [];
  let codes = 0;
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const c = process.cpuUsage();
    codes = (await service.analyzeText(text)).codes.length;
    const used = process.cpuUsage(c);
    ms.push(performance.now() - s);
    cpu.push((used.user + used.system) / 1000);
  }
  console.log(`${name} (${words(text)} words, ${codes} codes, ${runs} runs): wall ${stats(ms)}; CPU ${stats(cpu)}`);
}
