/**
 * Builds the clinical vocabulary for the embedded pocketsphinx engine:
 *   resources/asr/clinical.lm.bin  trigram LM (sphinx binary) from ACI-Bench and MTS-Dialog text
 *   resources/asr/clinical.dict    CMUdict plus espeak-ng pronunciations of clinical words it lacks
 * At run time the recogniser interpolates this LM with Debian's general en-us LM.
 * ACI-Bench test2 (taskC) is held out: scripts/eval-wer.ts dictates sentences from it.
 *
 * Run: npx tsx scripts/build-medical-lm.ts [--if-missing]   (env CLINDOC_EVAL_DATA, default ../shared/data)
 * `--if-missing` keeps artefacts already in resources/asr (they are committed), so installing never
 * rewrites them.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import koffi from 'koffi';
import { addSentence, createCounts, writeArpa } from '../main/engines/speech/pocketsphinx/arpa-builder.js';
import { pronounce } from '../main/engines/speech/pocketsphinx/g2p-espeak.js';
import { normalizeSentences } from '../main/engines/speech/pocketsphinx/text-normalizer.js';
import { clinicalArtefacts } from '../main/engines/speech/pocketsphinx/recognizer.js';
import { evalDataDir, REPO_ROOT } from './eval-data.js';
import { readCsv } from './csv.js';

const DATA = evalDataDir();
const OUT = join(REPO_ROOT, 'resources', 'asr');
const CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';

/** Training text: dialogues and notes of ACI-Bench (except test2) and MTS-Dialog. */
export const TRAINING_FILES: Array<[string, string[]]> = [
  ['aci-bench/train.csv', ['dialogue', 'note']],
  ['aci-bench/valid.csv', ['dialogue', 'note']],
  ['aci-bench/clinicalnlp_taskB_test1.csv', ['dialogue', 'note']],
  ['mts-dialog/MTS-Dialog-TrainingSet.csv', ['section_text', 'dialogue']],
  ['mts-dialog/MTS-Dialog-ValidationSet.csv', ['section_text', 'dialogue']],
];

function readDict(path: string): Map<string, string> {
  const dict = new Map<string, string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const i = line.indexOf(' ');
    if (i > 0) dict.set(line.slice(0, i), line.slice(i + 1).trim());
  }
  return dict;
}

/** Converts ARPA to sphinx binary with libsphinxbase (loads faster, smaller). */
function arpaToBin(arpa: string, bin: string): boolean {
  try {
    const sb = koffi.load('libsphinxbase.so.3');
    const logmathInit = sb.func('void *logmath_init(double base, int shift, int use_table)');
    const read = sb.func('void *ngram_model_read(void *config, const char *path, int type, void *lmath)');
    const write = sb.func('int ngram_model_write(void *model, const char *path, int type)');
    const errSetLogfp = sb.func('void err_set_logfp(void *fp)');
    errSetLogfp(null);
    const lmath = logmathInit(1.0001, 0, 0);
    const model = read(null, arpa, 1, lmath);
    return Boolean(model) && write(model, bin, 2) === 0;
  } catch {
    return false;
  }
}

function main(): void {
  if (process.argv.includes('--if-missing') && clinicalArtefacts(OUT)) {
    console.log(`clinical LM present in ${OUT}: kept (--if-missing)`);
    return;
  }
  if (!existsSync(DATA)) {
    console.log(`data-set folder ${DATA} not found: skipping the clinical LM build (set CLINDOC_EVAL_DATA)`);
    return;
  }
  const counts = createCounts();
  let sentences = 0;
  for (const [file, columns] of TRAINING_FILES) {
    const path = join(DATA, file);
    if (!existsSync(path)) {
      console.log(`missing ${file}, skipped`);
      continue;
    }
    for (const row of readCsv(path)) {
      for (const col of columns) {
        for (const s of normalizeSentences(row[col] ?? '')) {
          addSentence(counts, s);
          sentences++;
        }
      }
    }
  }
  const cmu = readDict(CMUDICT);
  const candidates = [...counts.orders[0]]
    .filter(([w, c]) => c >= 2 && /^[a-z][a-z']*$/.test(w) && w.length > 1 || ['a', 'i'].includes(w))
    .map(([w]) => w);
  const oov = candidates.filter((w) => !cmu.has(w));
  const oovPron = pronounce(oov);
  const vocabulary = new Set(candidates.filter((w) => cmu.has(w) || oovPron.has(w)));
  mkdirSync(OUT, { recursive: true });
  const arpaPath = join(OUT, 'clinical.lm');
  writeFileSync(arpaPath, writeArpa(counts, vocabulary, { minCount: 2 }));
  const binPath = join(OUT, 'clinical.lm.bin');
  const converted = arpaToBin(arpaPath, binPath);
  if (converted) rmSync(arpaPath);
  const dictLines = [...cmu.entries()].map(([w, p]) => `${w} ${p}`);
  for (const [w, phones] of oovPron) if (vocabulary.has(w)) dictLines.push(`${w} ${phones.join(' ')}`);
  writeFileSync(join(OUT, 'clinical.dict'), dictLines.sort().join('\n') + '\n');
  const lmFile = converted ? binPath : arpaPath;
  console.log(`sentences: ${sentences}`);
  console.log(`vocabulary: ${vocabulary.size} words (${oovPron.size} pronounced by espeak-ng, not in CMUdict)`);
  console.log(`language model: ${lmFile} (${(statSync(lmFile).size / 1e6).toFixed(2)} MB)`);
  console.log(`dictionary: ${join(OUT, 'clinical.dict')} (${dictLines.length} entries)`);
  console.log(`examples of added words: ${[...oovPron.keys()].slice(0, 12).join(', ')}`);
}

// Run only when executed, not when imported (TRAINING_FILES).
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
