/**
 * Measured quality of Clindoc's note writers on ACI-Bench and MTS-Dialog (scripts/eval-notes-data.ts),
 * per split and path, against the clinicians' references:
 *
 * - ROUGE-1/2/L and ROUGE-Lsum (the paper's ROUGE-L), scripts/rouge.ts;
 * - copy share: share of note tokens inside 6-token runs also in the transcript (the reference
 *   notes' share printed beside it);
 * - problems kept: ICD-10-CM categories Clindoc's coder finds in both the note and the reference ÷
 *   those it finds in the reference; and, on ACI-Bench, the labelled categories
 *   (../shared/data/aci-bench-coding/labels.jsonl) the coder finds in the note (in the reference:
 *   the ceiling);
 * - medication-with-dose recall; negation conflicts (findings the note states present or absent
 *   that the reference states the other way, by the clinical-language core's ConText);
 * - unsupported numbers and drugs (the fidelity checker's reading, before it removes or marks them)
 *   and every flag it would raise; notes within ±30% of the reference's length;
 * - untranslated share: words left inside "[en, not translated: …]" markers per note language.
 *
 *   npm run eval:notes [-- split ...]              splits: valid test1 test2 mts (default: all)
 *   npm run eval:notes -- --engine NAME [--max N]  an installed or configured language model (default 20 encounters of test1)
 *   npm run eval:notes -- --split test2 --dump DIR [--n 12] [--path soap] [--language en]
 *   add --verbose to list each encounter's negation conflicts, unsupported numbers and lost labels
 *
 * clinicalnlp_taskC_test2 is held out: report it, never tune on it.
 */
import { resolve } from 'node:path';
import { loadCodeTable } from '../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../main/engines/coding/lexicon-file.js';
import { writeNoteSync } from '../main/engines/text/embedded/index.js';
import { createIcdCoder } from '../main/services/coding/icd-coder.js';
import type { NoteGenerationInput } from '../main/services/notes/ports.js';
import { NOTE_LANGUAGES, type NoteLanguage } from '../shared/languages.js';
import { DEFAULT_SPLITS, paperTable, readCodingLabels, readSplit, splitName, type Split } from './eval-notes-data.js';
import { dumpNotes, type WriteNote } from './eval-notes-dump.js';
import { engineArg, openEngine } from './eval-engine.js';
import { categoriesOf, untranslatedShare } from './note-metrics.js';
import { flagLine, referenceRow, row, score, TABLE_HEADER, zero, type ProblemJudge } from './note-scoring.js';

export { rougeL, rougeLsum, rougeN, sentenceTokens, tokens } from './rouge.js';
export { medicationRecall } from './note-metrics.js';

const VALUE_FLAGS = ['--engine', '--max', '--split', '--dump', '--n', '--path', '--language'];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const embedded: WriteNote = async (input) => {
  const t0 = performance.now();
  const { markdown } = writeNoteSync(input);
  return { markdown, ms: performance.now() - t0 };
};

function problemJudge(): ProblemJudge {
  const table = loadCodeTable();
  if (!table) {
    console.log('no ICD-10-CM code set found (resources/codes): problems kept is not measured');
    return { labels: new Map() };
  }
  const coder = createIcdCoder(table, readCodingLexicon());
  return { categories: (text) => categoriesOf(coder.analyze(text).codes.map((c) => c.code)), labels: readCodingLabels() };
}

async function evaluate(split: Split, write: WriteNote, judge: ProblemJudge, max: number, verbose: boolean): Promise<void> {
  const cases = split.cases.slice(0, max);
  console.log(`\n${split.title}${cases.length < split.cases.length ? `, first ${cases.length}` : ''}`);
  console.log(TABLE_HEADER);
  let first = true;
  const kinds: string[] = [];
  for (const path of Object.keys(cases[0]?.noteTypes ?? {})) {
    const t = zero();
    for (const c of cases) {
      const input: NoteGenerationInput = { transcript: c.encounter.transcript, noteType: c.noteTypes[path]!, language: 'en' };
      try {
        const note = await write(input);
        score(t, c.encounter, input, c.body ? c.body(note.markdown) : note.markdown, note.ms, judge);
      } catch (err) {
        console.log(`  ${path}: one note failed (${(err as Error).message})`);
      }
    }
    if (!t.n) continue;
    if (first) {
      console.log(referenceRow(t));
      kinds.push(flagLine('reference', t, true));
    }
    first = false;
    console.log(row(path, t));
    kinds.push(flagLine(path, t));
    if (verbose) for (const d of t.details) console.log(`    ${path} ${d}`);
  }
  for (const k of kinds) console.log(k);
}

/** Words left in the transcript's language, per note language, on the first path. */
async function languages(split: Split, write: WriteNote, max: number): Promise<void> {
  const cases = split.cases.slice(0, max);
  const path = Object.keys(cases[0]?.noteTypes ?? {})[0];
  if (!path) return;
  const cells: string[] = [];
  for (const language of NOTE_LANGUAGES.filter((l) => l !== 'en')) {
    let words = 0;
    let left = 0;
    for (const c of cases) {
      const note = await write({ transcript: c.encounter.transcript, noteType: c.noteTypes[path]!, language });
      const u = untranslatedShare(note.markdown, language);
      words += u.words;
      left += u.untranslated;
    }
    cells.push(`${language} ${words ? ((100 * left) / words).toFixed(1) : '-'}%`);
  }
  console.log(`untranslated words (${path} path, English transcripts): ${cells.join(' · ')}`);
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const verbose = process.argv.includes('--verbose');
  const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !VALUE_FLAGS.includes(all[i - 1] ?? ''));
  const named = process.argv.flatMap((a, i, all) => (all[i - 1] === '--split' ? [a] : []));
  const engine = engineArg();
  const requested = [...positional, ...named].map(splitName);
  const splits = requested.length ? requested : engine ? ['clinicalnlp_taskB_test1'] : DEFAULT_SPLITS;
  const max = Number(option('--max') ?? (engine ? 20 : Number.MAX_SAFE_INTEGER));
  let write = embedded;
  let close = async (): Promise<void> => undefined;
  if (engine) {
    const opened = await openEngine('text', engine);
    const writer = opened.registry.noteWriter(engine);
    close = opened.close;
    write = async (input) => {
      const t0 = performance.now();
      const note = await writer.write(input);
      return { markdown: note.markdown, ms: performance.now() - t0 };
    };
  }
  const dump = option('--dump');
  try {
    if (dump) {
      const split = readSplit(splits[0]!);
      if (typeof split === 'string') console.log(split);
      else {
        const n = Number(option('--n') ?? 12);
        const path = option('--path') ?? Object.keys(split.cases[0]!.noteTypes)[0]!;
        const language = (option('--language') ?? 'en') as NoteLanguage;
        const written = await dumpNotes({ dir: resolve(dump), split, n, path, language, write, engine: engine ?? 'embedded' });
        console.log(`wrote ${written.length} notes with their transcripts to ${resolve(dump)} (README.md holds the rubric)`);
      }
    } else {
      const judge = problemJudge();
      for (const name of splits) {
        const split = readSplit(name);
        if (typeof split === 'string') {
          console.log(split);
          continue;
        }
        await evaluate(split, write, judge, max, verbose);
        if (!engine) await languages(split, write, max);
      }
      console.log(`\n${paperTable().join('\n')}`);
      console.log(
        `\nmeasured ${new Date().toISOString().slice(0, 10)}, engine ${engine ?? 'embedded'}. ROUGE: lower-case alphanumeric tokens, F-measure, no stemming; ` +
          'R-L over the whole note, R-Lsum summary-level (the paper\'s ROUGE-L). copy %: note tokens inside 6-token runs also in the transcript. ' +
          'problems kept: ICD-10-CM categories the coder finds in note and reference ÷ in the reference; labels found: labelled categories the coder finds in the note ' +
          '(reference row: in the reference). unsup.: before the fidelity check removes or marks them.',
      );
    }
  } finally {
    await close();
  }
}
