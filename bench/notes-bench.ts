/**
 * Speed of the embedded note writer on a 2,000-word transcript (goal: p50 < 200 ms).
 * Uses real ACI-Bench dialogues when the data sets are present (CLINDOC_EVAL_DATA), else a synthetic encounter
 * repeated to length. Prints figures; never fails on time.
 *
 *   npx tsx bench/notes-bench.ts
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { writeNoteSync } from '../main/engines/text/embedded/index.js';
import type { NoteTypeSpec } from '../main/services/notes/ports.js';
import type { NoteLanguage } from '../shared/languages.js';
import { readCsv } from '../scripts/csv.js';
import { evalDataPath } from '../scripts/eval-data.js';
import { ENCOUNTER } from '../test/notes/fixtures.js';

const WORDS = 2000;
const RUNS = 40;
const file = evalDataPath('aci-bench', 'valid.csv');

function transcriptOf(words: number): { text: string; source: string } {
  const dialogues = existsSync(file) ? readCsv(file).map((r) => r.dialogue!) : [];
  const pool = dialogues.length ? dialogues : [ENCOUNTER];
  const lines: string[] = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    for (const line of pool[i % pool.length]!.split('\n')) {
      if (count >= words) break;
      lines.push(line);
      count += line.split(/\s+/).length;
    }
  }
  return { text: lines.join('\n'), source: dialogues.length ? 'ACI-Bench valid dialogues' : 'synthetic encounter (data folder absent)' };
}

const { text, source } = transcriptOf(WORDS);
const NOTE_TEMPLATE: NoteTypeSpec['noteTemplate'] = {
  id: 'bench', title: 'Clinic note',
  sections: [
    { id: 'hpi', type: 'heading', properties: { level: 2, text: 'History of Present Illness' }, children: [{ id: 'hpi_text', type: 'text', prompt: 'History of present illness', properties: {} }] },
    { id: 'pe', type: 'heading', properties: { level: 2, text: 'Physical Examination' }, children: [{ id: 'pe_list', type: 'list', prompt: 'Physical exam findings', properties: { list_type: 'bullet' } }] },
    { id: 'ap', type: 'heading', properties: { level: 2, text: 'Assessment and Plan' }, children: [{ id: 'ap_text', type: 'text', prompt: 'Assessment and plan', properties: {} }] },
  ],
};
const types: Record<string, { noteType: NoteTypeSpec; language: NoteLanguage }> = {
  soap: { noteType: { type: 'soap', includeJson: true }, language: 'en' },
  note_style: { noteType: { type: 'note_style', template: 'CHIEF COMPLAINT\nHISTORY OF PRESENT ILLNESS\nREVIEW OF SYSTEMS\nPHYSICAL EXAMINATION\nRESULTS\nASSESSMENT AND PLAN' }, language: 'en' },
  note_template: { noteType: { type: 'note_template', noteTemplate: NOTE_TEMPLATE }, language: 'en' },
  'soap (es)': { noteType: { type: 'soap', includeJson: true }, language: 'es' },
};
console.log(`embedded note writer, ${text.split(/\s+/).length}-word transcript from ${source}; ${RUNS} runs after 3 warm-up; ${cpus().length} CPU(s), Node ${process.version}`);
for (const [name, { noteType, language }] of Object.entries(types)) {
  const medicationList = 'Lasix, Lisinopril, Metformin, Ferrous sulfate, Albuterol, Atorvastatin';
  for (let i = 0; i < 3; i++) writeNoteSync({ transcript: text, noteType, language, medicationList });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    writeNoteSync({ transcript: text, noteType, language, medicationList });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number): string => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${name.padEnd(13)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  max ${p(1)} ms  (goal p50 < 200 ms)`);
}
