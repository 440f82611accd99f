/**
 * Word error rate of the embedded recogniser before and after adapting it to one speaker (issue 27
 * point 9), with the components the server uses: sphinxtrain (main/engines/speech/pocketsphinx/
 * adaptation/sphinxtrain.ts, MLLR then MAP) and the pocketsphinx recogniser with the clinical
 * language model, on the general model and on the adapted one. Always on sentences of the same
 * speaker that adaptation never saw.
 *
 *  - synthetic: espeak-ng voices read the 20 enrollment sentences (main/services/voice-adaptation/
 *    sentences.ts); the model adapts on the 16 not held out and is measured on the 4 held out plus
 *    6 more dictation sentences.
 *  - real: every speaker on this machine with transcribed recordings: Debian's pocketsphinx-testdata
 *    (one LibriVox reader, 5 utterances; one speaker of card names, 5 utterances). So few that each
 *    is measured leave-one-out: adapt on 4, measure the fifth, five times. codec2-examples has no
 *    transcripts, so it cannot be scored.
 *
 * Run: npm run eval:voice [-- --only synthetic|real] [-- --voices en-us+m3,en-us+f3]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../main/engines/audio/index.js';
import { clinicalArtefacts, createPocketsphinxRecognizer } from '../main/engines/speech/pocketsphinx/index.js';
import { createSphinxtrainAdapter, sphinxtrainInstalled } from '../main/engines/speech/pocketsphinx/adaptation/sphinxtrain.js';
import { materializeModel } from '../main/engines/speech/pocketsphinx/adaptation/model-folder.js';
import { ENROLLMENT_SENTENCES } from '../main/services/voice-adaptation/sentences.js';
import { wordErrors } from '../main/services/voice-adaptation/measure.js';
import { locateAppFiles } from '../main/app-files.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const ONLY = arg('--only');
const VOICES = (arg('--voices') ?? 'en-us+m3,en-us+f3,en-gb+m7,en-us+klatt2').split(',');
const PS_TESTDATA = process.env.CLINDOC_PS_TESTDATA ?? '/usr/share/pocketsphinx/test/data';
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const ASR_DIR = locateAppFiles().asrDir;
const DICT = clinicalArtefacts(ASR_DIR)?.dict ?? join(MODEL_DIR, 'cmudict-en-us.dict');

/** More held-out dictation for the synthetic voices, none of it in the enrollment list. */
const EXTRA_HELD_OUT = [
  'The patient presents with a productive cough and shortness of breath for five days.',
  'Heart has a regular rate and rhythm without murmurs, rubs or gallops.',
  'She takes ibuprofen as needed for back pain and reports no side effects.',
  'Recommend a low salt diet and a follow up visit in three months.',
  'There is mild edema of both ankles but no calf tenderness.',
  'He was counseled about sleep hygiene and limiting caffeine in the evening.',
];

interface Clip { pcm: Int16Array; text: string }
/** Errors after adaptation by method: MLLR then MAP, and MLLR alone (the server keeps whichever does better on the account's held-out sentences). */
interface Row { speaker: string; adaptSeconds: number; clips: number; words: number; before: number; map: number; mllr: number; adaptTime: number }

const decoder = createFfmpegDecoder();
const work = mkdtempSync(join(tmpdir(), 'clindoc-eval-voice-'));
const adapter = createSphinxtrainAdapter({ modelDir: MODEL_DIR, dictPath: DICT });
const recognizerOptions = { medical: true, resourcesDir: ASR_DIR };
const base = createPocketsphinxRecognizer(recognizerOptions);

async function decodeFile(path: string): Promise<Int16Array> {
  return (await decoder.decodeFile(path, { sampleRate: 16000 })).channels[0]!;
}

let spoken = 0;
async function speak(voice: string, text: string): Promise<Int16Array> {
  const out = join(work, `s${spoken++}.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', out, text]);
  return decodeFile(out);
}

/** Errors of a packed adapted model on the held-out clips. */
async function errorsWith(model: Buffer, heldOut: Clip[]): Promise<number> {
  const folder = materializeModel(model, join(MODEL_DIR, 'en-us'));
  const adapted = createPocketsphinxRecognizer({ ...recognizerOptions, hmmDir: folder.dir });
  let errors = 0;
  try {
    for (const clip of heldOut) errors += wordErrors(clip.text, (await adapted.transcribe(clip.pcm, { language: 'en' })).text).errors;
  } finally {
    await adapted.close();
    folder.remove();
  }
  return errors;
}

/** Adapts on `adaptOn`, then scores `heldOut` with the general and each adapted model. */
async function measure(speaker: string, adaptOn: Clip[], heldOut: Clip[]): Promise<Row> {
  const started = performance.now();
  const { models } = await adapter.adapt(adaptOn);
  const adaptTime = (performance.now() - started) / 1000;
  const row: Row = { speaker, adaptSeconds: adaptOn.reduce((s, c) => s + c.pcm.length / 16000, 0), clips: heldOut.length, words: 0, before: 0, map: 0, mllr: 0, adaptTime };
  for (const clip of heldOut) {
    const b = wordErrors(clip.text, (await base.transcribe(clip.pcm, { language: 'en' })).text);
    row.words += b.words;
    row.before += b.errors;
  }
  for (const m of models) row[m.method === 'mllr' ? 'mllr' : 'map'] = await errorsWith(m.model, heldOut);
  return row;
}

/** Leave-one-out over a speaker's clips: each clip scored by models adapted on the others. */
async function leaveOneOut(speaker: string, clips: Clip[]): Promise<Row> {
  const total: Row = { speaker, adaptSeconds: 0, clips: 0, words: 0, before: 0, map: 0, mllr: 0, adaptTime: 0 };
  for (let i = 0; i < clips.length; i++) {
    const r = await measure(speaker, clips.filter((_, j) => j !== i), [clips[i]!]);
    total.adaptSeconds += r.adaptSeconds / clips.length;
    total.adaptTime += r.adaptTime / clips.length;
    total.clips += r.clips;
    total.words += r.words;
    total.before += r.before;
    total.map += r.map;
    total.mllr += r.mllr;
  }
  return total;
}

async function sphinxSpeaker(dir: string, transcription: string): Promise<Clip[]> {
  const clips: Clip[] = [];
  for (const line of readFileSync(join(dir, transcription), 'utf8').split('\n')) {
    const m = /^(?:<s>)?\s*(.*?)\s*(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(line.trim());
    if (m && existsSync(join(dir, `${m[2]}.wav`))) clips.push({ pcm: await decodeFile(join(dir, `${m[2]}.wav`)), text: m[1]! });
  }
  return clips;
}

const pct = (errors: number, words: number): string => (words ? `${((100 * errors) / words).toFixed(1)}%` : 'n/a');

const HEADER = '| speaker | adaptation audio | held-out clips | words | WER before | after MLLR+MAP | after MLLR only | adaptation time |\n|---|---|---|---|---|---|---|---|';
/** Each row as soon as it is measured, so a long run that is stopped still leaves what it measured. */
function print(r: Row): void {
  console.log(`| ${r.speaker} | ${r.adaptSeconds.toFixed(1)} s | ${r.clips} | ${r.words} | ${pct(r.before, r.words)} | ${pct(r.map, r.words)} | ${pct(r.mllr, r.words)} | ${r.adaptTime.toFixed(1)} s |`);
}

async function main(): Promise<void> {
  if (!sphinxtrainInstalled()) throw new Error('sphinxtrain is not installed (apt-get install sphinxtrain sphinxbase-utils pocketsphinx)');
  console.log(`${new Date().toISOString().slice(0, 16)} UTC, ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores)\n\n${HEADER}`);
  if (ONLY !== 'real') {
    for (const voice of VOICES) {
      const adaptOn: Clip[] = [];
      const heldOut: Clip[] = [];
      for (const s of ENROLLMENT_SENTENCES) (s.heldOut ? heldOut : adaptOn).push({ pcm: await speak(voice, s.text), text: s.text });
      for (const text of EXTRA_HELD_OUT) heldOut.push({ pcm: await speak(voice, text), text });
      print(await measure(`espeak-ng ${voice}`, adaptOn, heldOut));
    }
  }
  if (ONLY !== 'synthetic') {
    for (const [name, dir, file] of [['LibriVox reader (pocketsphinx-testdata)', 'librivox', 'transcription'], ['card names (pocketsphinx-testdata)', 'cards', 'cards.transcription']] as const) {
      const path = join(PS_TESTDATA, dir);
      if (!existsSync(join(path, file))) {
        console.log(`${name}: not installed (apt-get install pocketsphinx-testdata), skipped`);
        continue;
      }
      print(await leaveOneOut(`${name}, leave-one-out`, await sphinxSpeaker(path, file)));
    }
  }
}

try {
  await main();
} finally {
  await base.close();
  rmSync(work, { recursive: true, force: true });
}
