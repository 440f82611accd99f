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
const types: Record<string, NoteTypeSpec> = {
  soap: { type: 'soap', includeJson: true },
  note_style: { type: 'note_style', template: 'CHIEF COMPLAINT\nHISTORY OF PRESENT ILLNESS\nREVIEW OF SYSTEMS\nPHYSICAL EXAMINATION\nRESULTS\nASSESSMENT AND PLAN' },
};
console.log(`embedded note writer, ${text.split(/\s+/).length}-word transcript from ${source}; ${RUNS} runs after 3 warm-up; ${cpus().length} CPU(s), Node ${process.version}`);
for (const [name, noteType] of Object.entries(types)) {
  const medicationList = 'Lasix, Lisinopril, Metformin, Ferrous sulfate, Albuterol, Atorvastatin';
  for (let i = 0; i < 3; i++) writeNoteSync({ transcript: text, noteType, language: 'en', medicationList });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    writeNoteSync({ transcript: text, noteType, language: 'en', medicationList });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const p = (q: number): string => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${name.padEnd(11)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  max ${p(1)} ms  (goal p50 < 200 ms)`);
}
