/**
 * Measured quality of the embedded note writer on ACI-Bench (Yim et al. 2023, CC BY 4.0) and
 * MTS-Dialog (Ben Abacha et al. 2023, CC BY 4.0): per split and path (SOAP, free-text template,
 * NoteTemplate), ROUGE-1/2/L F-measure against the clinician-written references; the share of
 * note sentences that still read as conversation (the clinical-language core's detector, also
 * shown for the references as its false-alarm floor); drug names and numbers in the note that
 * the transcript never says; recall of the drugs the reference gives with a dose; words per note
 * and how many notes are within ±30% of the reference's length. Prints the paper's figures.
 *
 *   npx tsx scripts/eval-notes.ts [split ...]
 *   npm run eval:notes -- --engine NAME [--max N] [split ...]   (an installed or configured language model; default 20 encounters of test1)

 *   (default: valid clinicalnlp_taskB_test1 clinicalnlp_taskC_test2 mts-dialog)
 *
 * Data is read in place from `aci-bench/` and `mts-dialog/` in the data-set folder
 * (CLINDOC_EVAL_DATA, default ../shared/data; scripts/eval-data.ts); a split whose file is
 * absent is skipped with a message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeNoteSync } from '../main/engines/text/embedded/index.js';
import { checkFidelity, fidelitySourcesOf, unsupportedNumbers } from '../main/services/notes/fidelity.js';
import { DRUG_PHRASES, isDrugWord } from '../main/services/clinical-language/medications.js';
import { createPhraseMatcher } from '../main/services/clinical-language/phrase-match.js';
import { readDoses } from '../main/services/clinical-language/doses.js';
import { splitSentences } from '../main/services/clinical-language/tokenize.js';
import { noteStatements, readsAsConversation } from '../main/services/clinical-language/conversation.js';
import type { NoteGenerationInput, NoteTypeSpec } from '../main/services/notes/ports.js';
import type { NoteTemplate } from '../shared/note-template.js';
import { evalDataPath } from './eval-data.js';
import { readCsv } from './csv.js';
import { engineArg, openEngine } from './eval-engine.js';
import type { NoteWriter } from '../main/services/notes/ports.js';


const DATA = evalDataPath('aci-bench');

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

const ACI_TEMPLATE = 'CHIEF COMPLAINT\nHISTORY OF PRESENT ILLNESS\nREVIEW OF SYSTEMS\nPHYSICAL EXAMINATION\nRESULTS\nASSESSMENT AND PLAN';
const ACI_NOTE_TEMPLATE: NoteTemplate = {
  id: 'aci', title: 'Clinic note',
  sections: [
    { id: 'cc', type: 'heading', properties: { level: 2, text: 'Chief Complaint' }, children: [{ id: 'cc_text', type: 'text', prompt: 'Chief complaint', properties: { detail_level: 'brief' } }] },
    { id: 'hpi', type: 'heading', properties: { level: 2, text: 'History of Present Illness' }, children: [{ id: 'hpi_text', type: 'text', prompt: 'History of present illness', properties: {} }] },
    { id: 'ros', type: 'heading', properties: { level: 2, text: 'Review of Systems', hideIfEmpty: true }, children: [{ id: 'ros_list', type: 'list', prompt: 'Review of systems', properties: { list_type: 'bullet' } }] },
    { id: 'pe', type: 'heading', properties: { level: 2, text: 'Physical Examination' }, children: [{ id: 'pe_list', type: 'list', prompt: 'Physical exam findings', properties: { list_type: 'bullet' } }] },
    { id: 'res', type: 'heading', properties: { level: 2, text: 'Results', hideIfEmpty: true }, children: [{ id: 'res_text', type: 'text', prompt: 'Results of labs and imaging', properties: {} }] },
    { id: 'ap', type: 'heading', properties: { level: 2, text: 'Assessment and Plan' }, children: [{ id: 'ap_text', type: 'text', prompt: 'Assessment and plan', properties: {} }] },
  ],
};

const PATHS: Record<string, NoteTypeSpec> = {
  soap: { type: 'soap' },
  note_style: { type: 'note_style', template: ACI_TEMPLATE },
  note_template: { type: 'note_template', noteTemplate: ACI_NOTE_TEMPLATE },
};

/**
 * What the writer put in the note that the sources do not support, before the note service's
 * fidelity check removes or marks it (so the writer's own faithfulness is measured): drug-like
 * words the transcript never says, numbers and doses the fidelity checker
 * (main/services/notes/fidelity.ts) finds unsupported, and every flag that checker would raise
 * (numbers, doses, units, frequency, side, negation, drugs).
 */
function unsupported(note: string, input: NoteGenerationInput): { drugs: number; numbers: number; flags: number } {
  const sourceWords = new Set(tokens(input.transcript));
  const noteWords = tokens(note.replace(/^#.*$/gm, ''));
  const drugs = new Set(noteWords.filter((w) => isDrugWord(w) && !sourceWords.has(w)));
  const sources = fidelitySourcesOf(input);
  const numbers = unsupportedNumbers(note, sources).length;
  const flags = checkFidelity({ markdown: note }, sources).review.length;
  return { drugs: drugs.size, numbers, flags };
}

const drugMatcher = createPhraseMatcher(DRUG_PHRASES);

/**
 * Drugs the reference note gives with a dose ("lisinopril 20 mg"), by generic name, and whether
 * our note names each (any of its names). A dose within six words after the name counts.
 */
export function medicationRecall(note: string, reference: string): { dosed: number; found: number } {
  const dosed = new Set<string>();
  for (const sentence of splitSentences(reference, { lineBreaks: true })) {
    const doses = readDoses(sentence).filter((d) => d.unit.kind === 'mass' || d.unit.kind === 'dose' || d.unit.kind === 'volume');
    for (const hit of drugMatcher.find(sentence)) {
      const after = (d: { start: number }): number => sentence.slice(hit.end, d.start).split(/\s+/).filter(Boolean).length;
      if (doses.some((d) => d.start >= hit.end && after(d) <= 6)) dosed.add(hit.value);
    }
  }
  const ours = new Set(drugMatcher.find(note).map((h) => h.value));
  return { dosed: dosed.size, found: [...dosed].filter((g) => ours.has(g)).length };
}

/** Sentences of the note that read as conversation (the clinical-language core's detector). */
function conversational(note: string): { sentences: number; talk: number } {
  const statements = noteStatements(note.replace(/^#.*$/gm, ''));
  return { sentences: statements.length, talk: statements.filter(readsAsConversation).length };
}

interface Totals {
  n: number; r1: number; r2: number; rl: number; rls: number; words: number; refWords: number; drugs: number; numbers: number;
  sentences: number; talk: number; dosed: number; found: number; ms: number; lengthOk: number; flags: number;
}
const zero = (): Totals => ({ n: 0, r1: 0, r2: 0, rl: 0, rls: 0, words: 0, refWords: 0, drugs: 0, numbers: 0, sentences: 0, talk: 0, dosed: 0, found: 0, ms: 0, lengthOk: 0, flags: 0 });

function score(t: Totals, input: NoteGenerationInput, reference: string, body = (m: string): string => m, written?: { markdown: string; ms: number }): void {
  const t0 = performance.now();
  const note = body(written?.markdown ?? writeNoteSync(input).markdown);
  t.ms += written?.ms ?? performance.now() - t0;

  const c = tokens(note);
  const r = tokens(reference);
  t.n++;
  t.r1 += rougeN(c, r, 1);
  t.r2 += rougeN(c, r, 2);
  t.rl += rougeL(c, r);
  t.rls += rougeLsum(sentenceTokens(note), sentenceTokens(reference));
  t.words += c.length;
  t.refWords += r.length;
  if (Math.abs(c.length - r.length) <= 0.3 * r.length) t.lengthOk++;
  const u = unsupported(note, input);
  t.drugs += u.drugs;
  t.numbers += u.numbers;
  t.flags += u.flags;
  const talk = conversational(note);
  t.sentences += talk.sentences;
  t.talk += talk.talk;
  const m = medicationRecall(note, reference);
  t.dosed += m.dosed;
  t.found += m.found;
}

const HEADER = 'path            ROUGE-1  ROUGE-2  ROUGE-L  R-Lsum  talk%  unsup drugs/nums/flags  med recall  words ours/ref  len±30%  ms/note';

function line(name: string, t: Totals): string {
  const f = (x: number): string => ((100 * x) / t.n).toFixed(2).padStart(7);
  const talk = t.sentences ? ((100 * t.talk) / t.sentences).toFixed(1) : '-';
  const recall = t.dosed ? `${(t.found / t.dosed).toFixed(2)} (${t.found}/${t.dosed})` : '-';
  return `${name.padEnd(14)} ${f(t.r1)}  ${f(t.r2)}  ${f(t.rl)} ${f(t.rls)}  ${talk.padStart(5)}  ${`${t.drugs}/${t.numbers}/${t.flags}`.padStart(22)}  ${recall.padStart(10)}  ${`${Math.round(t.words / t.n)}/${Math.round(t.refWords / t.n)}`.padStart(14)}  ${`${t.lengthOk}/${t.n}`.padStart(7)}  ${(t.ms / t.n).toFixed(1).padStart(7)}`;
}

function evaluate(split: string): void {
  const file = join(DATA, `${split}.csv`);
  if (!existsSync(file)) {
    console.log(`skip ${split}: ${file} not found`);
    return;
  }
  const rows = readCsv(file);
  let refSentences = 0;
  let refTalk = 0;
  for (const row of rows) {
    const c = conversational(row.note!);
    refSentences += c.sentences;
    refTalk += c.talk;
  }
  console.log(`\n${split}: ${rows.length} encounters (reference notes: ${((100 * refTalk) / refSentences).toFixed(1)}% of sentences read as conversation)`);
  console.log(HEADER);
  for (const [name, noteType] of Object.entries(PATHS)) {
    const t = zero();
    for (const row of rows) score(t, { transcript: row.dialogue!, noteType, language: 'en' }, row.note!);
    console.log(line(name, t));
  }
}

/**
 * `--engine NAME`: the same ACI-Bench scoring for the note writer Clindoc runs under that name (an
 * installed language model, a configured server, or `embedded`), the first `--max N` encounters.
 */
async function evaluateEngine(split: string, name: string, writer: NoteWriter, max: number): Promise<void> {
  const file = join(DATA, `${split}.csv`);
  if (!existsSync(file)) {
    console.log(`skip ${split}: ${file} not found`);
    return;
  }
  const rows = readCsv(file).slice(0, max);
  console.log(`\n${split}: ${rows.length} encounters, engine ${name}`);
  console.log(HEADER);
  for (const [path, noteType] of Object.entries(PATHS)) {
    const t = zero();
    for (const row of rows) {
      const input: NoteGenerationInput = { transcript: row.dialogue!, noteType, language: 'en' };
      const t0 = performance.now();
      try {
        const note = await writer.write(input);
        score(t, input, row.note!, undefined, { markdown: note.markdown, ms: performance.now() - t0 });
      } catch (err) {
        console.log(`  ${path}: one note failed (${(err as Error).message})`);
      }
    }
    if (t.n) console.log(line(path, t));
  }
}

/** MTS-Dialog section headers as the section a NoteTemplate would ask for (its prompt). */

const MTS_PROMPTS: Record<string, string[]> = {
  GENHX: ['History of present illness'], CC: ['Chief complaint'], ROS: ['Review of systems'], PASTMEDICALHX: ['Past medical history'],
  PASTSURGICAL: ['Past surgical history'], MEDICATIONS: ['Current medications'], ALLERGY: ['Allergies'], 'FAM/SOCHX': ['Family history', 'Social history'],
  ASSESSMENT: ['Assessment'], DIAGNOSIS: ['Assessment'], PLAN: ['Plan'], DISPOSITION: ['Plan'], EXAM: ['Physical examination'],
  LABS: ['Results of labs'], IMAGING: ['Results of imaging'], PROCEDURES: ['Past surgical history'], GYNHX: ['Past medical history'],
  OTHER_HISTORY: ['Past medical history'], IMMUNIZATIONS: ['Past medical history'], EDCOURSE: ['History of present illness'],
};

/** MTS-Dialog (validation set): one section per dialogue, written through a NoteTemplate whose prompt names it. */
function evaluateMts(): void {
  const file = evalDataPath('mts-dialog', 'MTS-Dialog-ValidationSet.csv');
  if (!existsSync(file)) {
    console.log(`skip MTS-Dialog: ${file} not found`);
    return;
  }
  const rows = readCsv(file);
  console.log(`\nMTS-Dialog validation: ${rows.length} dialogues, one section each (note_template routed by the section's prompt)`);
  console.log(HEADER);
  const t = zero();
  for (const row of rows) {
    const prompts = MTS_PROMPTS[row.section_header!] ?? ['History of present illness'];
    const noteTemplate: NoteTemplate = {
      id: 'mts', title: 'Section',
      sections: prompts.map((prompt, i) => ({ id: `s${i}`, type: 'text' as const, prompt, properties: { hideIfEmpty: true } })),
    };
    score(t, { transcript: row.dialogue!, noteType: { type: 'note_template', noteTemplate }, language: 'en' }, row.section_text!, (m) => m.replace(/^# .*$/m, ''));
  }
  console.log(line('note_template', t));
}

function printPaper(): void {
  const file = join(DATA, 'paper-table-test1.csv');
  if (!existsSync(file)) return;
  const lines = readFileSync(file, 'utf8').split('\n');
  const end = lines.findIndex((l, i) => i > 2 && l.trim() === '');
  console.log('\nACI-Bench paper, clinicalnlp_taskB_test1, full note (ROUGE-1 / ROUGE-2 / ROUGE-L):');
  for (const l of lines.slice(2, end > 0 ? end : undefined)) {
    const cells = l.split(',');
    if (cells.length < 4) console.log(`  ${cells[0]}`);
    else console.log(`    ${cells[0]!.replace(/\$_\{\\mathrm\{(\w+)\}\}\$/g, '_$1').padEnd(38)} ${cells[1]!.padStart(6)} ${cells[2]!.padStart(6)} ${cells[3]!.padStart(6)}`);
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (!isMain) {
  // Imported for its ROUGE functions: do nothing.
} else if (!existsSync(DATA)) {
  console.log(`skip: ACI-Bench data folder not found at ${DATA} (set CLINDOC_EVAL_DATA to the folder holding aci-bench/)`);
} else if (engineArg()) {
  const name = engineArg()!;
  const maxAt = process.argv.indexOf('--max');
  const max = maxAt > 0 ? Number(process.argv[maxAt + 1]) : 20;
  const { registry, close } = await openEngine('text', name);
  const splits = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !['--engine', '--max'].includes(all[i - 1] ?? ''));
  for (const split of splits.length ? splits : ['clinicalnlp_taskB_test1']) await evaluateEngine(split, name, registry.noteWriter(name), max);
  await close();
  printPaper();
  console.log(`\nmeasured ${new Date().toISOString().slice(0, 10)} with --engine ${name} (first ${max} encounters per split); same scoring as the embedded writer's table.`);
} else {
  const splits = process.argv.slice(2);
  for (const split of splits.length ? splits : ['valid', 'clinicalnlp_taskB_test1', 'clinicalnlp_taskC_test2', 'mts-dialog']) {

    if (split === 'mts-dialog') evaluateMts();
    else evaluate(split);
  }
  printPaper();
  console.log(`\nmeasured ${new Date().toISOString().slice(0, 10)}; ROUGE: lower-case alphanumeric tokens, F-measure, no stemming; ROUGE-L over the whole note (LCS); R-Lsum summary-level LCS over sentences (the paper's ROUGE-L).`);
}
