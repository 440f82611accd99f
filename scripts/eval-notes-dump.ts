/**
 * `npm run eval:notes -- --split test2 --dump DIR --n 12`: writes N notes of a split, each beside
 * its transcript, for a physician-reader's review. The note is the one `POST /v1/notes` would
 * return (the writer's output after the fidelity check, review markers included). The clinicians'
 * reference notes go to a separate folder so a reader can judge the note before seeing one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFidelity, fidelitySourcesOf } from '../main/services/notes/fidelity.js';
import type { NoteGenerationInput } from '../main/services/notes/ports.js';
import type { NoteLanguage } from '../shared/languages.js';
import type { Case, Split } from './eval-notes-data.js';

/** A note writer as the scripts call it. */
export type WriteNote = (input: NoteGenerationInput) => Promise<{ markdown: string; ms: number }>;

/** `n` cases spread evenly over the split (its subsets, e.g. ACI-Bench's three dialogue styles, are in runs). */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

const RUBRIC = `Read each folder's transcript.txt, then note.md, as the physician who will sign the note.
For each note record:
- sign: would I sign this after light edits? 1 (no, rewrite) to 5 (yes, as is)
- wrong statements: each statement the transcript does not support or contradicts (negation, side,
  diagnosis, dose, attribution, a value from elsewhere given as today's)
- conversation: sentences that read as speech, not as a clinician's note
- omissions: problems, medications, orders (tests, referrals, follow-up) the transcript gives that the
  note lacks
Markers "⚠[check: …]" are the fidelity checker's flags, as the physician would see them.
The clinicians' reference notes are in references/: read them only after judging.`;

/** Writes the notes; returns the folders written. */
export async function dumpNotes(opts: { dir: string; split: Split; n: number; path: string; language: NoteLanguage; write: WriteNote; engine: string }): Promise<string[]> {
  const { dir, split, n, path, language, write } = opts;
  const chosen = spread(split.cases.filter((c: Case) => c.noteTypes[path]), n);
  mkdirSync(join(dir, 'references'), { recursive: true });
  const written: string[] = [];
  for (const [i, c] of chosen.entries()) {
    const input: NoteGenerationInput = { transcript: c.encounter.transcript, noteType: c.noteTypes[path]!, language };
    const raw = await write(input);
    const checked = checkFidelity({ markdown: raw.markdown }, fidelitySourcesOf(input));
    const name = `${String(i + 1).padStart(2, '0')}-${c.encounter.id}`;
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'transcript.txt'), `${c.encounter.transcript}\n`);
    writeFileSync(join(dir, name, 'note.md'), `${checked.markdown}\n`);
    writeFileSync(join(dir, 'references', `${name}.md`), `${c.encounter.reference}\n`);
    written.push(name);
  }
  const header = [
    `# Notes for review: ${split.name}, ${chosen.length} of ${split.cases.length} encounters`,
    '',
    `Written ${new Date().toISOString().slice(0, 10)} by engine ${opts.engine}, path ${path}, language ${language}.`,
    '',
    RUBRIC,
    '',
    '| note | sign (1-5) | wrong statements | conversation | omissions |',
    '|---|---|---|---|---|',
    ...written.map((w) => `| ${w} | | | | |`),
  ];
  writeFileSync(join(dir, 'README.md'), `${header.join('\n')}\n`);
  return written;
}
