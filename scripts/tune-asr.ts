/**
 * Batch search settings of the embedded recogniser against speed: word error rate beside
 * real-time factor, per setting, on the WER sets of scripts/eval-wer.ts (real recordings and
 * synthetic clinical dictation), with the clinical LM as the product runs it.
 *
 * Each row decodes a whole set the way concurrent uploads are decoded: every clip submitted at
 * once, utterances spread over `--threads` batch decoders (default 2, one per core of the target
 * machine). Figures per row:
 *  - WER (same normaliser as eval-wer);
 *  - RTF: wall-clock seconds per audio second, once per `--repeat` (default 2), because the
 *    machine may be shared;
 *  - CPU: process CPU seconds (all threads) per audio second, which other processes barely
 *    move; CPU / threads is the real-time factor an otherwise idle machine would give.
 * Row `today` is the batch decoding before this tuning: pocketsphinx's default search, each
 * utterance in one call, one decoder, clips one after another.
 *
 * Run: npx tsx scripts/tune-asr.ts [--only real|clinical] [--configs today,chunked,...] [--threads 2]
 *      [--repeat 2] [--max N] [--lm general]
 * Prints figures; chooses nothing by itself (the chosen settings are DEFAULT_BATCH_SEARCH in
 * main/engines/speech/pocketsphinx/recognizer.ts, with the run that chose them in docs/speech.md).
 */
import { loadavg } from 'node:os';
import { createPocketsphinxRecognizer, DEFAULT_BATCH_SEARCH, type BatchSearch } from '../main/engines/speech/pocketsphinx/recognizer.js';
import { normalizeWords } from '../main/engines/speech/pocketsphinx/text-normalizer.js';
import { createRobustVad, createSileroVad } from '../main/engines/vad/index.js';
import { editDistance } from '../main/services/clinical-language/edit-distance.js';
import { locateAppFiles } from '../main/app-files.js';
import { clinicalClips, realClips, type Clip } from './eval-wer.js';

interface Setting {
  name: string;
  what: string;
  search: BatchSearch;
  /** Audio per native call, s (0: one call per utterance). */
  chunkSec: number;
  /** Decode clips one after another on one decoder (the old batch path). */
  serial?: boolean;
}

const SETTINGS: Setting[] = [
  { name: 'today', what: 'default search, one call per utterance, 1 decoder, clips in turn', search: {}, chunkSec: 0, serial: true },
  { name: 'product', what: `the product's batch path: DEFAULT_BATCH_SEARCH ${JSON.stringify(DEFAULT_BATCH_SEARCH)}, 1 s calls, parallel`, search: DEFAULT_BATCH_SEARCH, chunkSec: 1 },
  { name: 'parallel', what: 'default search, one call per utterance, parallel', search: {}, chunkSec: 0 },
  { name: 'chunked', what: 'default search, 1 s calls (seeded CMN), parallel', search: {}, chunkSec: 1 },
  { name: 'nofwdflat', what: '-fwdflat no', search: { fwdflat: false }, chunkSec: 1 },
  { name: 'hmm10k', what: '-maxhmmpf 10000', search: { maxHmmPerFrame: 10000 }, chunkSec: 1 },
  { name: 'hmm5k', what: '-maxhmmpf 5000', search: { maxHmmPerFrame: 5000 }, chunkSec: 1 },
  { name: 'hmm3k', what: '-maxhmmpf 3000', search: { maxHmmPerFrame: 3000 }, chunkSec: 1 },
  { name: 'wpf20', what: '-maxwpf 20', search: { maxWordsPerFrame: 20 }, chunkSec: 1 },
  { name: 'wpf10', what: '-maxwpf 10', search: { maxWordsPerFrame: 10 }, chunkSec: 1 },
  { name: 'pl0', what: '-pl_window 0 (no phone lookahead)', search: { phoneLookahead: 0 }, chunkSec: 1 },
  { name: 'pl10', what: '-pl_window 10', search: { phoneLookahead: 10 }, chunkSec: 1 },
  { name: 'ds2', what: '-ds 2', search: { frameSkip: 2 }, chunkSec: 1 },
  { name: 'topn2', what: '-topn 2', search: { topGaussians: 2 }, chunkSec: 1 },
  { name: 'topn3', what: '-topn 3', search: { topGaussians: 3 }, chunkSec: 1 },
  { name: 'beam40', what: '-beam 1e-40 -pbeam 1e-40', search: { beam: 1e-40, phoneBeam: 1e-40 }, chunkSec: 1 },
  { name: 'beam35', what: '-beam 1e-35 -pbeam 1e-35 -wbeam 1e-25', search: { beam: 1e-35, phoneBeam: 1e-35, wordBeam: 1e-25 }, chunkSec: 1 },
  { name: 'lw5.5', what: '-lw 5.5 (fwdflat/bestpath weights in proportion)', search: { languageWeight: 5.5 }, chunkSec: 1 },
  { name: 'lw8', what: '-lw 8', search: { languageWeight: 8 }, chunkSec: 1 },
  { name: 'lw6', what: '-lw 6', search: { languageWeight: 6 }, chunkSec: 1 },
  { name: 'lw5', what: '-lw 5', search: { languageWeight: 5 }, chunkSec: 1 },
  // Combinations of the settings that kept WER and saved CPU on their own.
  { name: 'hmm5k+nofwdflat', what: '-maxhmmpf 5000 -fwdflat no', search: { maxHmmPerFrame: 5000, fwdflat: false }, chunkSec: 1 },
  { name: 'topn2+hmm5k+lw6', what: '-topn 2 -maxhmmpf 5000 -lw 6', search: { topGaussians: 2, maxHmmPerFrame: 5000, languageWeight: 6 }, chunkSec: 1 },
  { name: 'topn2+hmm5k', what: '-topn 2 -maxhmmpf 5000', search: { topGaussians: 2, maxHmmPerFrame: 5000 }, chunkSec: 1 },
  { name: 'topn2+hmm5k+nofwdflat', what: '-topn 2 -maxhmmpf 5000 -fwdflat no', search: { topGaussians: 2, maxHmmPerFrame: 5000, fwdflat: false }, chunkSec: 1 },
  { name: 'ds2+topn2', what: '-ds 2 -topn 2', search: { frameSkip: 2, topGaussians: 2 }, chunkSec: 1 },
  { name: 'topn2+hmm5k+lw5.5', what: '-topn 2 -maxhmmpf 5000 -lw 5.5', search: { topGaussians: 2, maxHmmPerFrame: 5000, languageWeight: 5.5 }, chunkSec: 1 },
  {
    name: 'topn2+hmm5k+nofwdflat+lw5.5', what: '-topn 2 -maxhmmpf 5000 -fwdflat no -lw 5.5',
    search: { topGaussians: 2, maxHmmPerFrame: 5000, fwdflat: false, languageWeight: 5.5 }, chunkSec: 1,
  },
  { name: 'ds2+topn2+hmm5k+lw5.5', what: '-ds 2 -topn 2 -maxhmmpf 5000 -lw 5.5', search: { frameSkip: 2, topGaussians: 2, maxHmmPerFrame: 5000, languageWeight: 5.5 }, chunkSec: 1 },
];

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = arg('--only');
const THREADS = Number(arg('--threads') ?? 2);
const REPEAT = Math.max(1, Number(arg('--repeat') ?? 2));
const PICK = arg('--configs')?.split(',');
const MEDICAL = arg('--lm') !== 'general';
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

interface Score { errors: number; words: number; audioSec: number }

function score(clips: Clip[], texts: string[]): Score {
  let errors = 0;
  let words = 0;
  clips.forEach((clip, i) => {
    const ref = normalizeWords(clip.reference);
    errors += editDistance(ref, normalizeWords(texts[i]!), { transpositions: false });
    words += ref.length;
  });
  return { errors, words, audioSec: clips.reduce((s, c) => s + c.pcm.length / 16000, 0) };
}

async function main(): Promise<void> {
  const settings = PICK ? SETTINGS.filter((s) => PICK.includes(s.name)) : SETTINGS;
  const sets: Array<[string, Clip[]]> = [];
  if (ONLY !== 'clinical') sets.push(['real', await realClips()]);
  if (ONLY !== 'real') sets.push(['clinical', await clinicalClips()]);
  for (const [name, clips] of sets) {
    console.log(`set ${name}: ${clips.length} clips, ${(clips.reduce((s, c) => s + c.pcm.length, 0) / 16000).toFixed(1)} s`);
  }
  const silero = createSileroVad();
  const vad = createRobustVad({ model: silero });
  console.log(`${MEDICAL ? 'clinical LM (weight 0.1)' : 'general LM'}; ${THREADS} threads; ${new Date().toISOString()}; load average ${load()}`);
  const head = sets.map(([n]) => `${n} WER | ${n} RTF (x${REPEAT}) | ${n} CPU s/s`).join(' | ');
  console.log(`| setting | flags | ${head} | load |`);
  console.log(`|---|---|${sets.map(() => '---|---|---|').join('')}---|`);
  for (const setting of settings) {
    const threads = setting.serial ? 1 : THREADS;
    const rec = createPocketsphinxRecognizer({
      medical: MEDICAL, resourcesDir: locateAppFiles().asrDir, vad, threads, batchParallel: threads,
      batchSearch: setting.search, batchChunkSec: setting.chunkSec,
    });
    const cells: string[] = [];
    try {
      // Loads the decoders (model files, language models) outside the timing.
      const warm = sets[0]![1].slice(0, threads);
      await Promise.all(warm.map((c) => rec.transcribe(c.pcm, { language: 'en' })));
      for (const [, clips] of sets) {
        const rtfs: string[] = [];
        let cpu = 0;
        let result: Score | undefined;
        for (let r = 0; r < REPEAT; r++) {
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          const texts: string[] = [];
          if (setting.serial) for (const c of clips) texts.push((await rec.transcribe(c.pcm, { language: 'en' })).text);
          else texts.push(...(await Promise.all(clips.map((c) => rec.transcribe(c.pcm, { language: 'en' })))).map((x) => x.text));
          const wall = (performance.now() - t0) / 1000;
          const used = process.cpuUsage(c0);
          result = score(clips, texts);
          rtfs.push((wall / result.audioSec).toFixed(2));
          cpu += (used.user + used.system) / 1e6 / result.audioSec;
        }
        const wer = result!.words ? `${((100 * result!.errors) / result!.words).toFixed(1)}%` : 'n/a';
        cells.push(wer, rtfs.join(' / '), (cpu / REPEAT).toFixed(2));
      }
      console.log(`| ${setting.name} | ${setting.what} | ${cells.join(' | ')} | ${loadavg()[0]!.toFixed(1)} |`);
    } catch (err) {
      console.log(`| ${setting.name} | ${setting.what} | failed: ${(err as Error).message} |`);
    } finally {
      await rec.close();
    }
  }
  await silero.close();
}

await main();
