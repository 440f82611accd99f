import { readFileSync } from 'node:fs';
import { parseCsv } from '/work/main/scripts/eval-notes.js';
import { writeNoteSync } from '/work/main/main/engines/text/embedded/index.js';
const rows = parseCsv(readFileSync('/work/shared/data/aci-bench/valid.csv', 'utf8'));
const i = Number(process.argv[2] ?? 0);
const type = (process.argv[3] ?? 'soap') as 'soap';
console.log(writeNoteSync({ transcript: rows[i]!.dialogue!, noteType: { type, template: 'CHIEF COMPLAINT\nHISTORY OF PRESENT ILLNESS\nREVIEW OF SYSTEMS\nPHYSICAL EXAMINATION\nRESULTS\nASSESSMENT AND PLAN' }, language: 'en' }).markdown);
