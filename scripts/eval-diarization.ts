/**
 * Diarization error rate on two-speaker recordings built from REAL speech of different people:
 * the recordings shipped in Debian's `codec2-examples` package (radio amateurs and codec test
 * speakers, 8 kHz, read in place from /usr/share/codec2/wav or CLINDOC_CODEC2_DIR).
 *
 * Each conversation alternates utterances of two speakers with 0.2-0.6 s pauses; the true turns
 * are known. The script prints DER (collar 0.25 s) for the clustering diarizer
 * (main/engines/diarization) with
 *   - oracle speech segments (scores speaker clustering alone), speaker count given and estimated;
 *   - segments from a simple energy detector (what a VAD-less pipeline would get);
 *   - segments from Silero VAD alone, and from the robust VAD the pipeline uses (Silero, with
 *     energy segments added when Silero misses loud stretches: main/engines/vad/robust-vad.ts).
 *
 * A second, labelled stand-in set: MTS-Dialog doctor-patient dialogues (CLINDOC_EVAL_DATA, read in
 * place) spoken by two espeak-ng voices. Same synthesiser, same channel: only the voice differs.
 *
 * Third, the issue 27 case: a ~40 s two-voice visit recorded as the end-to-end harness records
 * (scripts/two-voice-recording.ts: 48 kHz WAV, 0.6 s pauses), diarized as the batch pipeline does
 * (robust VAD, speaker count estimated), for two voice pairs. Last, how often the doctor/patient
 * guess names the doctor on ACI-Bench (scripts/eval-speaker-roles.ts).
 *
 * Run: npx tsx scripts/eval-diarization.ts (`-- --visit-only`: the two-voice visit and the roles alone)
 * Data: apt-get install codec2-examples  (or: apt-get download codec2-examples && dpkg -x *.deb DIR,
 * then CLINDOC_CODEC2_DIR=DIR/usr/share/codec2)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../main/engines/audio/index.js';
import { evalDataPath } from './eval-data.js';
import { readCsv } from './csv.js';
import { createRobustVad, createSileroVad, energySegments as energySegmentsAt } from '../main/engines/vad/index.js';
import { createClusteringDiarizer } from '../main/engines/diarization/index.js';
import type { DiarizationOptions, SpeakerTurn, SpeechSegment } from '../main/services/transcriptions/ports.js';
import { diarizationErrorRate } from './diarization-error-rate.js';
import { twoVoiceRecording } from './two-voice-recording.js';
import { reportSpeakerRoles } from './eval-speaker-roles.js';

const SR = 16000;
/** Where Debian's codec2-examples installs its recordings (`dpkg -L codec2-examples`). */
const dir = process.env.CLINDOC_CODEC2_DIR ?? '/usr/share/codec2';
/** Long recordings, each one distinct speaker. */
const SPEAKERS = ['david4', 'vk2tpm_004', 'vk5qi', 've9qrp'];

const diarizer = createClusteringDiarizer();
const diarizeMono = (pcm: Int16Array, sampleRate: number, segments: SpeechSegment[], options?: DiarizationOptions): Promise<SpeakerTurn[]> =>
  diarizer.diarize(pcm, sampleRate, segments, options);

/** Energy speech detector at 16 kHz (the engine's, main/engines/vad/energy-vad.ts). */
const energySegments = (pcm: Int16Array, minSilenceSec = 0.25, minSpeechSec = 0.3): SpeechSegment[] =>
  energySegmentsAt(pcm, SR, { minSilenceSec, minSpeechSec });

/** Deterministic pseudo-random numbers, so every run builds the same conversations. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Speech stretches of a recording, long ones cut into pieces of at most 4 s. */
function utterances(pcm: Int16Array): Int16Array[] {
  return energySegments(pcm, 0.2, 0.8).flatMap((s) => {
    const n = Math.ceil((s.end - s.start) / 4);
    return Array.from({ length: n }, (_, k) => {
      const a = s.start + ((s.end - s.start) * k) / n;
      const b = s.start + ((s.end - s.start) * (k + 1)) / n;
      return pcm.slice(Math.round(a * SR), Math.round(b * SR));
    });
  });
}

function conversation(a: Int16Array[], b: Int16Array[], rand: () => number, turns = 12): { pcm: Int16Array; truth: SpeakerTurn[] } {
  const parts: Int16Array[] = [];
  const truth: SpeakerTurn[] = [];
  let t = 0.3;
  parts.push(new Int16Array(Math.round(0.3 * SR)));
  for (let k = 0; k < turns; k++) {
    const pool = k % 2 === 0 ? a : b;
    const u = pool[Math.floor(k / 2) % pool.length]!;
    truth.push({ start: t, end: t + u.length / SR, speaker: k % 2 });
    parts.push(u);
    t += u.length / SR;
    const gap = new Int16Array(Math.round((0.2 + rand() * 0.4) * SR));
    parts.push(gap);
    t += gap.length / SR;
  }
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { pcm.set(p, o); o += p.length; }
  return { pcm, truth };
}

/** Doctor-patient dialogues from MTS-Dialog spoken by two espeak-ng voices. */
async function syntheticDialogues(): Promise<void> {
  const csv = evalDataPath('mts-dialog', 'MTS-Dialog-ValidationSet.csv');
  if (!existsSync(csv)) {
    console.log(`synthetic dialogues: skipped, ${csv} is absent`);
    return;
  }
  const decoder = createFfmpegDecoder();
  const tmp = mkdtempSync(join(tmpdir(), 'clindoc-eval-diar-'));
  const voices: Record<string, string[]> = { Doctor: ['-v', 'en-us+m3', '-p', '40'], Patient: ['-v', 'en-us+f2', '-p', '60'] };
  const dialogues = readCsv(csv).map((r) => r.dialogue ?? '')
    .map((d) => d.split(/\n/).map((l) => /^(Doctor|Patient):\s*(.+)$/.exec(l.trim())).filter((m): m is RegExpExecArray => m !== null))
    .filter((turns) => turns.length >= 6).slice(0, 5);
  const ders: number[] = [];
  let n = 0;
  try {
    for (const turns of dialogues) {
      const parts: Int16Array[] = [];
      const truth: SpeakerTurn[] = [];
      let t = 0;
      for (const m of turns.slice(0, 10)) {
        const wav = join(tmp, `${n++}.wav`);
        execFileSync('espeak-ng', [...voices[m[1]!]!, '-s', '165', '-w', wav, m[2]!]);
        const pcm = (await decoder.decodeFile(wav, { sampleRate: SR })).channels[0]!;
        truth.push({ start: t, end: t + pcm.length / SR, speaker: m[1] === 'Doctor' ? 0 : 1 });
        parts.push(pcm, new Int16Array(Math.round(0.3 * SR)));
        t += pcm.length / SR + 0.3;
      }
      const pcm = new Int16Array(parts.reduce((k, p) => k + p.length, 0));
      let o = 0;
      for (const p of parts) { pcm.set(p, o); o += p.length; }
      ders.push(diarizationErrorRate(truth, await diarizeMono(pcm, SR, energySegments(pcm), { numSpeakers: 2 })).der);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const mean = ders.reduce((a, b) => a + b, 0) / Math.max(ders.length, 1);
  console.log(`synthetic stand-in (espeak-ng m3 vs f2 voices, MTS-Dialog text, energy VAD, k=2): ${ders.map((d) => `${(100 * d).toFixed(1)}%`).join(' ')}; mean DER ${(100 * mean).toFixed(1)}%`);
}

/** The two-voice visit of issue 27, diarized as the batch pipeline does it. */
async function twoVoiceVisit(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'clindoc-eval-visit-'));
  const decoder = createFfmpegDecoder();
  const robust = createRobustVad({ model: createSileroVad() });
  try {
    // A male and a female variant of one accent (the end-to-end test's pair), and a male US voice
    // against the British voice with the female variant, which espeak-ng speaks at the same pitch.
    for (const voices of [['en-us+m3', 'en-us+f4'], ['en-us+m3', 'en-gb+f4']] as Array<[string, string]>) {
      const { path, durationSec, truth } = twoVoiceRecording(tmp, voices.join('-').replace(/\+/g, '_'), voices);
      const pcm = (await decoder.decodeFile(path, { sampleRate: SR })).channels[0]!;
      const segments = (await robust.decide(pcm, SR)).segments;
      const estimated = await diarizeMono(pcm, SR, segments);
      const two = await diarizeMono(pcm, SR, segments, { numSpeakers: 2 });
      const k = new Set(estimated.map((t) => t.speaker)).size;
      const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
      console.log(`two-voice visit (${voices.join(' vs ')}, ${durationSec.toFixed(1)} s, robust VAD): ${k} speaker(s) estimated, DER ${pct(diarizationErrorRate(truth, estimated).der)}; told 2 speakers: DER ${pct(diarizationErrorRate(truth, two).der)}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  await twoVoiceVisit();
  reportSpeakerRoles();
  if (process.argv.includes('--visit-only')) return;
  await syntheticDialogues();
  if (!existsSync(join(dir, 'wav'))) {
    console.log(`eval-diarization: real-speech set skipped, no recordings at ${dir}/wav (install Debian's codec2-examples or set CLINDOC_CODEC2_DIR)`);
    return;
  }
  const decoder = createFfmpegDecoder();
  const pools = new Map<string, Int16Array[]>();
  for (const name of SPEAKERS) {
    const path = join(dir, 'wav', `${name}.wav`);
    if (!existsSync(path)) continue;
    const audio = await decoder.decodeFile(path, { sampleRate: SR });
    pools.set(name, utterances(audio.channels[0]!));
  }
  const names = [...pools.keys()].filter((n) => pools.get(n)!.length >= 3);
  const rand = rng(7);
  const silero = createSileroVad();
  const robust = createRobustVad({ model: silero });
  const rows: Array<{ pair: string; dur: number; oracle2: number; oracleK: number; energy2: number; sileroK: number; sileroMiss: number; robust2: number; source: string; k: number }> = [];
  const t0 = performance.now();
  let audioSec = 0;
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = pools.get(names[i]!)!;
      const b = pools.get(names[j]!)!;
      // No utterance is used twice: repeated audio would make clustering look better than it is.
      const { pcm, truth } = conversation(a, b, rand, 2 * Math.min(a.length, b.length, 6));
      audioSec += pcm.length / SR;
      const oracle = truth.map(({ start, end }) => ({ start, end }));
      const hyp2 = await diarizeMono(pcm, SR, oracle, { numSpeakers: 2 });
      const hypK = await diarizeMono(pcm, SR, oracle);
      const hypE = await diarizeMono(pcm, SR, energySegments(pcm), { numSpeakers: 2 });
      const hypS = await diarizeMono(pcm, SR, await silero.segments(pcm, SR), { numSpeakers: 2 });
      const decision = await robust.decide(pcm, SR);
      const hypR = await diarizeMono(pcm, SR, decision.segments, { numSpeakers: 2 });
      rows.push({
        pair: `${names[i]} + ${names[j]}`,
        dur: pcm.length / SR,
        oracle2: diarizationErrorRate(truth, hyp2).der,
        oracleK: diarizationErrorRate(truth, hypK).der,
        energy2: diarizationErrorRate(truth, hypE).der,
        sileroK: diarizationErrorRate(truth, hypS).der,
        sileroMiss: (() => { const d = diarizationErrorRate(truth, hypS); return d.total ? d.missed / d.total : 0; })(),
        robust2: diarizationErrorRate(truth, hypR).der,
        source: `${decision.source}, Silero covered ${Math.round(100 * decision.coverage)}%`,
        k: new Set(hypK.map((h) => h.speaker)).size,
      });
    }
  }
  const elapsed = (performance.now() - t0) / 1000;
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`.padStart(7);
  console.log('two-speaker conversations from codec2-examples real speech (8 kHz, upsampled to 16 kHz); DER with 0.25 s collar');
  console.log('pair                          dur(s)  oracle,k=2  oracle,k=est (k)  energyVAD,k=2  SileroVAD,k=2 (missed)  robustVAD,k=2 (decision)');
  for (const r of rows) {
    console.log(`${r.pair.padEnd(28)} ${r.dur.toFixed(1).padStart(7)}  ${pct(r.oracle2)}     ${pct(r.oracleK)} (${r.k})     ${pct(r.energy2)}        ${pct(r.sileroK)} (${pct(r.sileroMiss).trim().padStart(6)})  ${pct(r.robust2)} (${r.source})`);
  }
  const mean = (f: (r: (typeof rows)[number]) => number): string => pct(rows.reduce((s, r) => s + f(r), 0) / Math.max(rows.length, 1));
  console.log(`${'mean'.padEnd(28)} ${audioSec.toFixed(1).padStart(7)}  ${mean((r) => r.oracle2)}     ${mean((r) => r.oracleK)}         ${mean((r) => r.energy2)}        ${mean((r) => r.sileroK)}           ${mean((r) => r.robust2)}`);
  // One-speaker recordings: how often the speaker count is over-estimated.
  const single: Array<{ name: string; k: number; der: number }> = [];
  for (const name of names) {
    const pool = pools.get(name)!.slice(0, 12);
    const { pcm, truth } = conversation(pool, pool, rand, pool.length - (pool.length % 2));
    const hyp = await diarizeMono(pcm, SR, truth.map(({ start, end }) => ({ start, end })));
    const one = truth.map((t) => ({ ...t, speaker: 0 }));
    single.push({ name, k: new Set(hyp.map((h) => h.speaker)).size, der: diarizationErrorRate(one, hyp).der });
  }
  console.log(`one-speaker recordings, speakers estimated: ${single.map((r) => `${r.name}=${r.k} (DER ${pct(r.der).trim()})`).join(', ')}`);
  console.log(`diarization time: ${elapsed.toFixed(2)} s for ${(audioSec * 5).toFixed(0)} s of audio (real-time factor ${(elapsed / (audioSec * 5)).toFixed(4)}, VAD included)`);
}

await main();
