/**
 * The encounters `npm run eval:notes` scores: ACI-Bench (Yim et al. 2023, CC BY 4.0) splits valid,
 * clinicalnlp_taskB_test1 and clinicalnlp_taskC_test2 as whole notes through three paths (SOAP,
 * free-text template, NoteTemplate), and MTS-Dialog's validation set (Ben Abacha et al. 2023,
 * CC BY 4.0) as one section per dialogue. Read in place from the data-set folder
 * (CLINDOC_EVAL_DATA, default ../shared/data; scripts/eval-data.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { NoteTypeSpec } from '../main/services/notes/ports.js';
import type { NoteTemplate } from '../shared/note-template.js';
import { readCsv } from './csv.js';
import { evalDataPath } from './eval-data.js';
import type { Encounter } from './note-scoring.js';

/** Short names on the command line for the data files. */
export const SPLIT_ALIASES: Readonly<Record<string, string>> = {
  valid: 'valid', test1: 'clinicalnlp_taskB_test1', test2: 'clinicalnlp_taskC_test2', mts: 'mts-dialog',
};
/** Every split, in the order printed. clinicalnlp_taskC_test2 is held out: reported, never tuned on. */
export const DEFAULT_SPLITS = ['valid', 'clinicalnlp_taskB_test1', 'clinicalnlp_taskC_test2', 'mts-dialog'];

export const splitName = (arg: string): string => SPLIT_ALIASES[arg] ?? arg;

/** One encounter with the note type each path asks for; `body` strips what the path adds beyond the reference. */
export interface Case {
  encounter: Encounter;
  noteTypes: Record<string, NoteTypeSpec>;
  body?: (markdown: string) => string;
}

export interface Split {
  name: string;
  title: string;
  cases: Case[];
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

/** The three ways a caller asks for an ACI-Bench-style note. */
export const ACI_PATHS: Record<string, NoteTypeSpec> = {
  soap: { type: 'soap' },
  note_style: { type: 'note_style', template: ACI_TEMPLATE },
  note_template: { type: 'note_template', noteTemplate: ACI_NOTE_TEMPLATE },
};

/** MTS-Dialog section headers as the section a NoteTemplate would ask for (its prompt). */
const MTS_PROMPTS: Record<string, string[]> = {
  GENHX: ['History of present illness'], CC: ['Chief complaint'], ROS: ['Review of systems'], PASTMEDICALHX: ['Past medical history'],
  PASTSURGICAL: ['Past surgical history'], MEDICATIONS: ['Current medications'], ALLERGY: ['Allergies'], 'FAM/SOCHX': ['Family history', 'Social history'],
  ASSESSMENT: ['Assessment'], DIAGNOSIS: ['Assessment'], PLAN: ['Plan'], DISPOSITION: ['Plan'], EXAM: ['Physical examination'],
  LABS: ['Results of labs'], IMAGING: ['Results of imaging'], PROCEDURES: ['Past surgical history'], GYNHX: ['Past medical history'],
  OTHER_HISTORY: ['Past medical history'], IMMUNIZATIONS: ['Past medical history'], EDCOURSE: ['History of present illness'],
};

function mtsTemplate(header: string): NoteTemplate {
  const prompts = MTS_PROMPTS[header] ?? ['History of present illness'];
  return {
    id: 'mts', title: 'Section',
    sections: prompts.map((prompt, i) => ({ id: `s${i}`, type: 'text' as const, prompt, properties: { hideIfEmpty: true } })),
  };
}

/** A split's encounters, or a reason it is absent. */
export function readSplit(split: string): Split | string {
  if (split === 'mts-dialog') {
    const file = evalDataPath('mts-dialog', 'MTS-Dialog-ValidationSet.csv');
    if (!existsSync(file)) return `skip MTS-Dialog: ${file} not found`;
    const cases = readCsv(file).map((row): Case => ({
      encounter: { id: `mts-${row.ID}`, transcript: row.dialogue!, reference: row.section_text! },
      noteTypes: { note_template: { type: 'note_template', noteTemplate: mtsTemplate(row.section_header!) } },
      body: (m) => m.replace(/^# .*$/m, ''),
    }));
    return { name: split, title: `MTS-Dialog validation: ${cases.length} dialogues, one section each (note_template routed by the section's prompt)`, cases };
  }
  const file = evalDataPath('aci-bench', `${split}.csv`);
  if (!existsSync(file)) return `skip ${split}: ${file} not found`;
  const cases = readCsv(file).map((row): Case => ({
    encounter: { id: row.encounter_id!, transcript: row.dialogue!, reference: row.note! },
    noteTypes: ACI_PATHS,
  }));
  const held = split === 'clinicalnlp_taskC_test2' ? ' (held out: reported, never tuned on)' : '';
  return { name: split, title: `ACI-Bench ${split}: ${cases.length} encounters${held}`, cases };
}

/** Labelled ICD-10-CM categories of the ACI-Bench reference notes, by encounter id (empty when the file is absent). */
export function readCodingLabels(): Map<string, Set<string>> {
  const file = evalDataPath('aci-bench-coding', 'labels.jsonl');
  const out = new Map<string, Set<string>>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { id: string; codes: { category: string }[] };
    out.set(entry.id, new Set(entry.codes.map((c) => c.category.toUpperCase())));
  }
  return out;
}

/** The ACI-Bench paper's table for test1 (ROUGE-1 / ROUGE-2 / ROUGE-L), as printed lines. */
export function paperTable(): string[] {
  const file = evalDataPath('aci-bench', 'paper-table-test1.csv');
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8').split('\n');
  const end = lines.findIndex((l, i) => i > 2 && l.trim() === '');
  const out = ['ACI-Bench paper, clinicalnlp_taskB_test1, full note (ROUGE-1 / ROUGE-2 / ROUGE-L):'];
  for (const l of lines.slice(2, end > 0 ? end : undefined)) {
    const cells = l.split(',');
    if (cells.length < 4) out.push(`  ${cells[0]}`);
    else out.push(`    ${cells[0]!.replace(/\$_\{\\mathrm\{(\w+)\}\}\$/g, '_$1').padEnd(38)} ${cells[1]!.padStart(6)} ${cells[2]!.padStart(6)} ${cells[3]!.padStart(6)}`);
  }
  return out;
}
