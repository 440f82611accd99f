/**
 * Measured quality of the embedded note writer on ACI-Bench (Yim et al. 2023, CC BY 4.0):
 * ROUGE-1/2/L F-measure of generated notes against the clinician-written references, for the
 * SOAP, free-text template and NoteTemplate paths, plus a faithfulness check (drug names and
 * numbers in the note that the transcript never says). Prints the paper's figures beside ours.
 *
 *   npx tsx scripts/eval-notes.ts [split ...]     (default: valid clinicalnlp_taskB_test1)
 *
 * Data is read in place from `aci-bench/` in the data-set folder (CLINDOC_EVAL_DATA, default
 * ../shared/data; scripts/eval-data.ts); the script skips when it is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeNoteSync } from '../main/engines/text/embedded/index.js';
import { normaliseNumbers } from '../main/services/clinical-language/normalise.js';
import { joinSpokenDecimals } from '../main/services/clinical-language/numbers.js';
import { cleanUtterance } from '../main/engines/text/embedded/clean.js';
import { isDrugWord } from '../main/services/clinical-language/medications.js';
import type { NoteGenerationInput, NoteTypeSpec } from '../main/services/notes/ports.js';
import type { NoteTemplate } from '../shared/note-template.js';
import { evalDataPath } from './eval-data.js';
import { readCsv } from './csv.js';

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

const NUMBER_UNIT = /\b\d+(?:\.\d+)?(?:\s*(?:mg|mcg|ml|units?|%))?/gi;

/** Drug-like words and numbers in the note that the transcript never says (should be none). */
function unsupported(note: string, transcript: string): { drugs: number; numbers: number } {
  // Compare with the transcript as the writer normalises it ("five weeks" -> "5 weeks").
  const source = `${transcript} ${normaliseNumbers(cleanUtterance(joinSpokenDecimals(transcript)))}`.toLowerCase();
  const sourceWords = new Set(tokens(transcript));
  const noteWords = tokens(note.replace(/^#.*$/gm, ''));
  const drugs = new Set(noteWords.filter((w) => isDrugWord(w) && !sourceWords.has(w)));
  const numbers = new Set((note.match(NUMBER_UNIT) ?? []).map((n) => n.replace(/\s*(mg|mcg|ml|units?|%)$/i, '')).filter((n) => !source.includes(n)));
  return { drugs: drugs.size, numbers: numbers.size };
}

function evaluate(split: string): void {
  const file = join(DATA, `${split}.csv`);
  if (!existsSync(file)) {
    console.log(`skip ${split}: ${file} not found`);
    return;
  }
  const rows = readCsv(file);
  console.log(`\n${split}: ${rows.length} encounters`);
  console.log('path            ROUGE-1  ROUGE-2  ROUGE-L  R-Lsum  words(ours/ref)  unsupported drugs/numbers  ms/note');
  for (const [name, noteType] of Object.entries(PATHS)) {
    let r1 = 0, r2 = 0, rl = 0, rls = 0, words = 0, refWords = 0, drugs = 0, numbers = 0, ms = 0;
    for (const row of rows) {
      const input: NoteGenerationInput = { transcript: row.dialogue!, noteType, language: 'en' };
      const t0 = performance.now();
      const note = writeNoteSync(input).markdown;
      ms += performance.now() - t0;
      const c = tokens(note);
      const r = tokens(row.note!);
      r1 += rougeN(c, r, 1);
      r2 += rougeN(c, r, 2);
      rl += rougeL(c, r);
      rls += rougeLsum(sentenceTokens(note), sentenceTokens(row.note!));
      words += c.length;
      refWords += r.length;
      const u = unsupported(note, row.dialogue!);
      drugs += u.drugs;
      numbers += u.numbers;
    }
    const n = rows.length;
    const f = (x: number): string => ((100 * x) / n).toFixed(2).padStart(7);
    console.log(`${name.padEnd(14)} ${f(r1)}  ${f(r2)}  ${f(rl)} ${f(rls)}  ${`${Math.round(words / n)}/${Math.round(refWords / n)}`.padStart(15)}  ${`${drugs}/${numbers}`.padStart(25)}  ${(ms / n).toFixed(1).padStart(7)}`);
  }
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
} else {
  const splits = process.argv.slice(2);
  for (const split of splits.length ? splits : ['valid', 'clinicalnlp_taskB_test1']) evaluate(split);
  printPaper();
  console.log(`\nmeasured ${new Date().toISOString().slice(0, 10)}; ROUGE: lower-case alphanumeric tokens, F-measure, no stemming; ROUGE-L over the whole note (LCS); R-Lsum summary-level LCS over sentences (the paper's ROUGE-L).`);
}
