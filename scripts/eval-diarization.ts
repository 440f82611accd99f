/**
 * Diarization error rate on two-speaker recordings built from REAL speech of different people:
 * the recordings shipped in Debian's `codec2-examples` package (radio amateurs and codec test
 * speakers, 8 kHz, read in place from /usr/share/codec2/wav or CLINDOC_CODEC2_DIR).
 *
 * Each conversation alternates utterances of two speakers with 0.2-0.6 s pauses; the true turns
 * are known. The script prints DER (collar 0.25 s) for `diarizeMono` with
 *   - oracle speech segments (scores speaker clustering alone), speaker count given and estimated;
 *   - segments from a simple energy detector (what a VAD-less pipeline would get).
 *
 * Run: npx tsx scripts/eval-diarization.ts
 * Data: apt-get install codec2-examples  (or: apt-get download codec2-examples && dpkg -x *.deb DIR,
 * then CLINDOC_CODEC2_DIR=DIR/usr/share/codec2)
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../main/engines/audio/index.js';
import { diarizationErrorRate, diarizeMono, type SpeakerTurn } from '../main/services/transcriptions/diarization.js';
import type { SpeechSegment } from '../main/services/transcriptions/ports.js';

const SR = 16000;
const dir = process.env.CLINDOC_CODEC2_DIR ?? '/usr/share/codec2';
/** Long recordings, each one distinct speaker. */
const SPEAKERS = ['david4', 'vk2tpm_004', 'vk5qi', 've9qrp'];

/** Energy speech detector: 30 ms frames above a level set between the quiet and loud percentiles. */
export function energySegments(pcm: Int16Array, minSilence = 0.25, minSpeech = 0.3): SpeechSegment[] {
  const frame = Math.round(SR * 0.03);
  const energies: number[] = [];
  for (let i = 0; i + frame <= pcm.length; i += frame) {
    let e = 0;
    for (let j = i; j < i + frame; j++) e += pcm[j]! * pcm[j]!;
    energies.push(10 * Math.log10(e / frame + 1));
  }
  const sorted = [...energies].sort((a, b) => a - b);
  const lo = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const hi = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const threshold = lo + (hi - lo) * 0.35;
  const segs: SpeechSegment[] = [];
  let start = -1;
  let lastSpeech = -1;
  energies.forEach((e, k) => {
    const t = (k * frame) / SR;
    if (e > threshold) {
      if (start < 0) start = t;
      lastSpeech = t + frame / SR;
    } else if (start >= 0 && t - lastSpeech > minSilence) {
      if (lastSpeech - start >= minSpeech) segs.push({ start, end: lastSpeech });
      start = -1;
    }
  });
  if (start >= 0 && lastSpeech - start >= minSpeech) segs.push({ start, end: lastSpeech });
  return segs;
}

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

async function main(): Promise<void> {
  if (!existsSync(join(dir, 'wav'))) {
    console.log(`eval-diarization: skipped, no real speech recordings at ${dir}/wav (install Debian's codec2-examples or set CLINDOC_CODEC2_DIR)`);
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
  const rows: Array<{ pair: string; dur: number; oracle2: number; oracleK: number; energy2: number; k: number }> = [];
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
      const hyp2 = diarizeMono(pcm, SR, oracle, { numSpeakers: 2 });
      const hypK = diarizeMono(pcm, SR, oracle);
      const hypE = diarizeMono(pcm, SR, energySegments(pcm), { numSpeakers: 2 });
      rows.push({
        pair: `${names[i]} + ${names[j]}`,
        dur: pcm.length / SR,
        oracle2: diarizationErrorRate(truth, hyp2).der,
        oracleK: diarizationErrorRate(truth, hypK).der,
        energy2: diarizationErrorRate(truth, hypE).der,
        k: new Set(hypK.map((h) => h.speaker)).size,
      });
    }
  }
  const elapsed = (performance.now() - t0) / 1000;
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`.padStart(7);
  console.log('two-speaker conversations from codec2-examples real speech (8 kHz, upsampled to 16 kHz); DER with 0.25 s collar');
  console.log('pair                          dur(s)  oracle,k=2  oracle,k=est (k)  energyVAD,k=2');
  for (const r of rows) {
    console.log(`${r.pair.padEnd(28)} ${r.dur.toFixed(1).padStart(7)}  ${pct(r.oracle2)}     ${pct(r.oracleK)} (${r.k})     ${pct(r.energy2)}`);
  }
  const mean = (f: (r: (typeof rows)[number]) => number): string => pct(rows.reduce((s, r) => s + f(r), 0) / Math.max(rows.length, 1));
  console.log(`${'mean'.padEnd(28)} ${audioSec.toFixed(1).padStart(7)}  ${mean((r) => r.oracle2)}     ${mean((r) => r.oracleK)}         ${mean((r) => r.energy2)}`);
  // One-speaker recordings: how often the speaker count is over-estimated.
  const single = names.map((name) => {
    const pool = pools.get(name)!.slice(0, 12);
    const { pcm, truth } = conversation(pool, pool, rand, pool.length - (pool.length % 2));
    const hyp = diarizeMono(pcm, SR, truth.map(({ start, end }) => ({ start, end })));
    const one = truth.map((t) => ({ ...t, speaker: 0 }));
    return { name, k: new Set(hyp.map((h) => h.speaker)).size, der: diarizationErrorRate(one, hyp).der };
  });
  console.log(`one-speaker recordings, speakers estimated: ${single.map((r) => `${r.name}=${r.k} (DER ${pct(r.der).trim()})`).join(', ')}`);
  console.log(`diarization time: ${elapsed.toFixed(2)} s for ${(audioSec * 3).toFixed(0)} s of audio (real-time factor ${(elapsed / (audioSec * 3)).toFixed(4)})`);
}

await main();
