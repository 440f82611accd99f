/**
 * Word error rate and real-time factor per speech engine: the embedded pocketsphinx before and
 * after the clinical vocabulary (batch and streaming), and the ONNX engines (CLINDOC_ASR_MODEL_DIR)
 * and an OpenAI-compatible server (CLINDOC_ASR_BASE_URL, CLINDOC_ASR_MODEL, CLINDOC_ASR_API_KEY)
 * when configured; otherwise they print "skipped: not configured".
 *
 * Sets:
 *  - real: real recorded speech, never copied into the repository:
 *    - every `NAME.wav` with a `NAME.txt` reference in CLINDOC_SPEECH_SAMPLES (default
 *      /tmp/clindoc-speech-samples), including the public-domain JFK inaugural clip shipped inside
 *      the npm package `nodejs-whisper` (fetched with `npm pack` into that folder when missing);
 *    - Debian's `pocketsphinx-testdata` (BSD-2, CMU; read in place from
 *      /usr/share/pocketsphinx/test/data or CLINDOC_PS_TESTDATA, else `apt-get download` +
 *      `dpkg -x` into the samples folder): five LibriVox (public domain) readings of Sense and
 *      Sensibility and five spoken card names, each with its reference transcript.
 *  - clinical: synthetic dictation, espeak-ng reading sentences from the notes of ACI-Bench
 *    test2 (held out from the clinical LM).
 * Normaliser (main/engines/speech/pocketsphinx/text-normalizer.ts): lowercase, digits spelled as
 * words, % -> percent, / -> over, hyphens split, other punctuation dropped. WER = (S + D + I) / N.
 *
 * `--sweep W1,W2,...` also scores the batch engine at each clinical-LM interpolation weight
 * (0 = general LM alone, with the clinical dictionary) to choose the default.
 *
 * `--capture` instead plays the real-speech clips through Chromium's fake microphone and the
 * app's capture code with the browser's echo cancellation, noise suppression and automatic gain
 * on and off, and scores what dictation would send (scripts/eval-wer-capture.ts).
 *
 * Search settings against speed (WER beside real-time factor): scripts/tune-asr.ts.
 *
 * `--engine NAME` scores only that engine, built as Clindoc builds it: a configured engine or a
 * model installed with `clindoc models` (scripts/eval-engine.ts), batch and live.
 *
 * Run: npx tsx scripts/eval-wer.ts [--max N] [--sweep 0,0.1,0.3,0.5] [--only real|clinical] [--capture] [--engine NAME]

 * (env CLINDOC_EVAL_DATA, default ../shared/data)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFfmpegDecoder } from '../main/engines/audio/index.js';
import { createPocketsphinxRecognizer } from '../main/engines/speech/pocketsphinx/index.js';
import { normalizeWords } from '../main/engines/speech/pocketsphinx/text-normalizer.js';
import { createRobustVad, createSileroVad } from '../main/engines/vad/index.js';
import { createOnnxCtcRecognizer, createOnnxWhisperRecognizer } from '../main/engines/speech/onnx/index.js';
import { createOpenAiCompatibleRecognizer } from '../main/engines/speech/openai-compatible.js';
import { editDistance } from '../main/services/clinical-language/edit-distance.js';
import type { SpeechRecognizer } from '../main/services/transcriptions/ports.js';
import { readCsv } from './csv.js';
import { engineArg, openEngine } from './eval-engine.js';

import { evalDataDir } from './eval-data.js';
import { captureComparison } from './eval-wer-capture.js';
import { locateAppFiles } from '../main/app-files.js';

const SAMPLES = resolve(process.env.CLINDOC_SPEECH_SAMPLES ?? '/tmp/clindoc-speech-samples');
const DATA = evalDataDir();
/** The clinical language model the app bundles (main/app-files.ts). */
const CLINICAL_DIR = locateAppFiles().asrDir;
const maxArg = process.argv.indexOf('--max');
const MAX_CLINICAL = maxArg > 0 ? Number(process.argv[maxArg + 1]) : 15;
const sweepArg = process.argv.indexOf('--sweep');
const SWEEP = sweepArg > 0 ? process.argv[sweepArg + 1]!.split(',').map(Number) : [];
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const PS_TESTDATA = process.env.CLINDOC_PS_TESTDATA ?? '/usr/share/pocketsphinx/test/data';

export interface Clip {
  id: string;
  pcm: Int16Array;
  reference: string;
}

const decoder = createFfmpegDecoder();

export async function realClips(): Promise<Clip[]> {
  mkdirSync(SAMPLES, { recursive: true });
  const jfk = join(SAMPLES, 'jfk.wav');
  if (!existsSync(jfk)) {
    try {
      execFileSync('npm', ['pack', 'nodejs-whisper@0.3.1', '--pack-destination', SAMPLES], { stdio: 'ignore' });
      execFileSync('tar', ['xzf', join(SAMPLES, 'nodejs-whisper-0.3.1.tgz'), '-C', SAMPLES, '--strip-components=6',
        'package/cpp/whisper.cpp/bindings/go/samples/jfk.wav']);
      writeFileSync(join(SAMPLES, 'jfk.txt'),
        'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.\n');
    } catch {
      console.log('could not fetch the JFK sample from npm (offline?): real-speech set limited to local files');
    }
  }
  const clips: Clip[] = await pocketsphinxTestdata();
  for (const f of readdirSync(SAMPLES).filter((n) => /\.(wav|flac|mp3|ogg)$/.test(n)).sort()) {
    const ref = join(SAMPLES, f.replace(/\.\w+$/, '.txt'));
    if (!existsSync(ref)) continue;
    const audio = await decoder.decodeFile(join(SAMPLES, f));
    clips.push({ id: f, pcm: audio.channels[0]!, reference: readFileSync(ref, 'utf8') });
  }
  return clips;
}

/** The folder of Debian's pocketsphinx-testdata: installed, or unpacked into the samples folder. */
function testdataDir(): string | undefined {
  if (existsSync(join(PS_TESTDATA, 'librivox', 'transcription'))) return PS_TESTDATA;
  const unpacked = join(SAMPLES, 'pocketsphinx-testdata');
  const dir = join(unpacked, 'usr', 'share', 'pocketsphinx', 'test', 'data');
  if (existsSync(join(dir, 'librivox', 'transcription'))) return dir;
  try {
    mkdirSync(unpacked, { recursive: true });
    execFileSync('apt-get', ['download', 'pocketsphinx-testdata'], { cwd: unpacked, stdio: 'ignore' });
    const deb = readdirSync(unpacked).find((f) => f.endsWith('.deb'));
    if (!deb) return undefined;
    execFileSync('dpkg', ['-x', join(unpacked, deb), unpacked]);
    rmSync(join(unpacked, deb));
    return existsSync(join(dir, 'librivox', 'transcription')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Sphinx transcription lines: `<s> words </s> (fileid)`. */
async function sphinxSet(dir: string, transcription: string, prefix: string): Promise<Clip[]> {
  const clips: Clip[] = [];
  for (const line of readFileSync(join(dir, transcription), 'utf8').split('\n')) {
    const m = /^(?:<s>)?\s*(.*?)\s*(?:<\/s>)?\s*\(([^)]+)\)\s*$/.exec(line.trim());
    if (!m) continue;
    const wav = join(dir, `${m[2]}.wav`);
    if (!existsSync(wav)) continue;
    clips.push({ id: `${prefix}${m[2]}`, pcm: (await decoder.decodeFile(wav)).channels[0]!, reference: m[1]! });
  }
  return clips;
}

async function pocketsphinxTestdata(): Promise<Clip[]> {
  const dir = testdataDir();
  if (!dir) {
    console.log('pocketsphinx-testdata not found and not downloadable (apt-get install pocketsphinx-testdata): LibriVox and cards clips skipped');
    return [];
  }
  return [...(await sphinxSet(join(dir, 'librivox'), 'transcription', 'librivox/')), ...(await sphinxSet(join(dir, 'cards'), 'cards.transcription', 'cards/'))];
}

export async function clinicalClips(): Promise<Clip[]> {
  const csv = join(DATA, 'aci-bench', 'clinicalnlp_taskC_test2.csv');
  if (!existsSync(csv)) {
    console.log(`data-set folder ${DATA} not found: skipping synthetic clinical dictation (set CLINDOC_EVAL_DATA)`);
    return [];
  }
  const sentences: string[] = [];
  for (const row of readCsv(csv)) {
    for (const s of (row.note ?? '').split(/(?<=[.?!])\s+|\n+/)) {
      const words = s.trim().split(/\s+/);
      if (words.length >= 6 && words.length <= 18 && /^[A-Za-z]/.test(s) && !/[A-Z]{2,}:/.test(s)) sentences.push(s.trim());
    }
  }
  // Every k-th sentence, so the set spans many encounters.
  const step = Math.max(1, Math.floor(sentences.length / MAX_CLINICAL));
  const picked = sentences.filter((_, i) => i % step === 0).slice(0, MAX_CLINICAL);
  const dir = join(SAMPLES, 'clinical');
  mkdirSync(dir, { recursive: true });
  const clips: Clip[] = [];
  for (const [i, text] of picked.entries()) {
    const wav = join(dir, `dictation-${i}.wav`);
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', wav, text]);
    const audio = await decoder.decodeFile(wav);
    clips.push({ id: `dictation-${i}`, pcm: audio.channels[0]!, reference: text });
  }
  return clips;
}

async function streamTranscribe(rec: SpeechRecognizer, pcm: Int16Array): Promise<string> {
  const stream = rec.createStream!({ language: 'en' });
  for (let i = 0; i < pcm.length; i += 1600) stream.accept(pcm.subarray(i, i + 1600));
  // Engines without a streaming decoder (Whisper, CTC) finish an utterance asynchronously, as live sessions do.
  const text = (stream.finalizeUtteranceAsync ? await stream.finalizeUtteranceAsync() : stream.finalizeUtterance()).text;

  stream.close();
  return text;
}

async function evaluate(label: string, rec: SpeechRecognizer, clips: Clip[], streaming: boolean): Promise<string> {
  let errors = 0;
  let words = 0;
  let audioSec = 0;
  const t0 = performance.now();
  for (const clip of clips) {
    const hyp = streaming ? await streamTranscribe(rec, clip.pcm) : (await rec.transcribe(clip.pcm, { language: 'en' })).text;
    const ref = normalizeWords(clip.reference);
    errors += editDistance(ref, normalizeWords(hyp), { transpositions: false });
    words += ref.length;
    audioSec += clip.pcm.length / 16000;
  }
  const rtf = (performance.now() - t0) / 1000 / audioSec;
  const wer = words ? ((100 * errors) / words).toFixed(1) : 'n/a';
  return `| ${label} | ${clips.length} | ${audioSec.toFixed(1)} | ${words} | ${wer}% | ${rtf.toFixed(2)} |`;
}

/** Engines that are configured on this machine, by the same variables the app reads. */
function configuredEngines(): Array<[string, SpeechRecognizer | null]> {
  const modelDir = process.env.CLINDOC_ASR_MODEL_DIR;
  const baseUrl = process.env.CLINDOC_ASR_BASE_URL;
  return [
    ['onnx-ctc', modelDir ? createOnnxCtcRecognizer({ modelDir }) : null],
    ['onnx-whisper', modelDir ? createOnnxWhisperRecognizer({ modelDir }) : null],
    ['openai-compatible', baseUrl ? createOpenAiCompatibleRecognizer({
      baseUrl, model: process.env.CLINDOC_ASR_MODEL ?? 'whisper-1', ...(process.env.CLINDOC_ASR_API_KEY ? { apiKey: process.env.CLINDOC_ASR_API_KEY } : {}),
    }) : null],
  ];
}

async function main(): Promise<void> {
  if (process.argv.includes('--capture')) {
    // Live dictation's path: streaming recognition with the clinical LM, as the app's default.
    const silero = createSileroVad();
    const medical = createPocketsphinxRecognizer({ medical: true, resourcesDir: CLINICAL_DIR, vad: createRobustVad({ model: silero }) });
    await captureComparison(await realClips(), (label, clips) => evaluate(`pocketsphinx + clinical LM, streaming / ${label}`, medical, clips, true));
    await medical.close();
    await silero.close();
    return;
  }
  const engineName = engineArg();
  // `--engine NAME` measures one engine as Clindoc would run it (a configured one or an installed model).
  const chosen = engineName ? await openEngine('speech', engineName) : undefined;
  const sets: Array<[string, Clip[]]> = [];
  if (ONLY !== 'clinical') sets.push(['real', await realClips()]);

  if (ONLY !== 'real') sets.push(['clinical (espeak-ng)', await clinicalClips()]);
  // The product's batch segmentation: Silero plus energy (main/engines/vad/robust-vad.ts).
  const silero = createSileroVad();
  const vad = createRobustVad({ model: silero });
  const engines: Array<[string, SpeechRecognizer, boolean]> = [];
  const general = createPocketsphinxRecognizer({ medical: false, vad });
  const medical = createPocketsphinxRecognizer({ medical: true, resourcesDir: CLINICAL_DIR, vad });
  if (chosen) {
    const rec = chosen.registry.recognizer(engineName!);
    const about = chosen.registry.describe('speech', engineName!)!;
    engines.push([`${engineName} (${about.engine}${about.model ? ` ${about.model}` : ''}), batch`, rec, false], [`${engineName}, live`, rec, true]);
  } else {
    engines.push(['pocketsphinx general LM, batch', general, false], ['pocketsphinx general LM, streaming', general, true]);
    engines.push(['pocketsphinx + clinical LM, batch', medical, false], ['pocketsphinx + clinical LM, streaming', medical, true]);
  }
  const others = chosen ? [] : configuredEngines();

  for (const [name, rec] of others) {
    if (rec) engines.push([name, rec, false]);
    else console.log(`${name}: skipped: not configured (${name === 'openai-compatible' ? 'CLINDOC_ASR_BASE_URL' : 'CLINDOC_ASR_MODEL_DIR'})`);
  }
  for (const [setName, clips] of sets) console.log(`set ${setName}: ${clips.length} clips (${clips.map((c) => c.id).join(', ')})`);
  console.log('| engine / set | clips | audio s | ref words | WER | RTF |');
  console.log('|---|---|---|---|---|---|');
  for (const [setName, clips] of sets) {
    if (clips.length === 0) continue;
    for (const [name, rec, streaming] of engines) {
      try {
        console.log(await evaluate(`${name} / ${setName}`, rec, clips, streaming));
      } catch (err) {
        console.log(`| ${name} / ${setName} | failed: ${(err as Error).message} |`);
      }
    }
  }
  for (const w of SWEEP) {
    const rec = createPocketsphinxRecognizer({ medical: true, resourcesDir: CLINICAL_DIR, vad, clinicalWeight: w });
    for (const [setName, clips] of sets) {
      if (clips.length) console.log(await evaluate(`pocketsphinx clinical weight ${w}, batch / ${setName}`, rec, clips, false));
    }
    await rec.close();
  }
  await general.close();
  await medical.close();
  for (const [, rec] of others) await rec?.close?.();
  await chosen?.close();
  await silero.close();

}

// scripts/tune-asr.ts imports the clip sets; only a run of this file evaluates.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
