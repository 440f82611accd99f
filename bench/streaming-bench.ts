/**
 * Live transcription latency and capacity, measured through the real socket.
 *
 * Speech: espeak-ng utterances separated by pauses, streamed as linear16 in 100 ms chunks at
 * real-time pace (chunk i leaves at t0 + (i+1)*100 ms, as a microphone delivers it). Figures:
 * - partial latency: for each partial, arrival time minus the moment its newest word ended in
 *   the audio (t0 + word end): how long after a word is spoken it first shows;
 * - final latency: arrival of each utterance's final minus the true end of that utterance's
 *   speech (known from how the clip was built);
 * - lag: arrival of each partial minus the moment the audio it covers was sent;
 * - capacity: the same run with N concurrent sessions (one account each); a level counts as real
 *   time when final p95 < 1.5 s, lag p95 < 0.5 s and no chunk was dropped.
 * - live beside batch: end-of-speech -> final (and partials, lag) for one session alone, then
 *   with two batch transcriptions decoding throughout on the same recogniser (the batch pipeline
 *   on a 58 s recording, restarted as each finishes), as in the app, where dictation and uploads
 *   share the recogniser threads; batch throughput is printed beside it. Target: final p95 under
 *   800 ms in both.
 * Prints figures; never fails on time. Run: npx tsx bench/streaming-bench.ts [maxSessions]
 * (0 skips the capacity levels and runs only live beside batch).
 *
 * A/B switches: `STREAM_BENCH_SYNC=1` hides the recogniser's async calls, so every session's
 * recognition runs on the event loop as before the thread-pool path existed;
 * `CLINDOC_ASR_STREAM_FWDFLAT=1 CLINDOC_ASR_STREAM_MAXHMMPF=0` restores pocketsphinx's full
 * search for stream decoders; `STREAM_BENCH_FIFO=1` turns live-first scheduling off (every
 * recogniser call waits its turn in call order, batch may hold every thread). The load average is
 * printed because the machine may be shared.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { WebSocket } from 'ws';
import { loadConfig } from '../main/config.js';
import { locateAppFiles } from '../main/app-files.js';
import { createClindoc } from '../main/composition.js';
import { createFfmpegDecoder, createStreamDecoder } from '../main/engines/audio/index.js';
import { createClusteringDiarizer } from '../main/engines/diarization/index.js';
import { createTranscriptionPipeline } from '../main/services/transcriptions/pipeline.js';
import type { TranscriptionPipeline } from '../main/services/transcriptions/transcription-service.js';
import { attachStreaming } from '../main/server/streaming/attach.js';
import { createPocketsphinxRecognizer, clinicalArtefacts } from '../main/engines/speech/pocketsphinx/index.js';
import { createEnergyEndpointer, createRobustVad, createSileroVad } from '../main/engines/vad/index.js';
import type { SpeechRecognizer, SpeechStream } from '../main/services/transcriptions/ports.js';
import { wavFile } from '../test/support/audio.js';

const UTTERANCES = [
  'hello world. one two three four five.',
  'the patient has a cough and a fever.',
  'six seven eight nine ten.',
  'blood pressure is one twenty over eighty.',
];
const RATE = 16000;
const CHUNK = 1600; // 100 ms

function have(bin: string): boolean {
  try {
    execFileSync(bin, ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Builds the clip; returns PCM and where each utterance's speech really ends. */
function buildClip(dir: string): { pcm: Int16Array; ends: number[] } {
  const parts: Int16Array[] = [new Int16Array(RATE / 2)];
  const ends: number[] = [];
  let at = RATE / 2;
  UTTERANCES.forEach((text, i) => {
    const raw = join(dir, `u${i}.raw`);
    execFileSync('sh', ['-c', `espeak-ng -v en-us+m3 -s 140 --stdout "${text}" | ffmpeg -v error -y -i - -ar 16000 -ac 1 -f s16le ${raw}`]);
    const b = readFileSync(raw);
    let pcm = new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
    // espeak pads with silence: trim it so the true speech end is known.
    let last = pcm.length - 1;
    while (last > 0 && Math.abs(pcm[last]!) < 200) last--;
    pcm = pcm.slice(0, last + 1);
    parts.push(pcm, new Int16Array(Math.round(RATE * 1.2)));
    at += pcm.length;
    ends.push(at / RATE);
    at += Math.round(RATE * 1.2);
  });
  const pcm = new Int16Array(at);
  let o = 0;
  for (const p of parts) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, ends };
}

interface Run { partial: number[]; final: number[]; lag: number[]; dropped: number; finals: number }

/**
 * Keeps `count` batch transcriptions of `path` decoding until `stop` resolves (each one restarts
 * when it finishes); resolves with the audio seconds transcribed and the seconds it took.
 */
async function batchLoad(pipeline: TranscriptionPipeline, path: string, count: number, stop: Promise<void>): Promise<{ audioSec: number; wallSec: number }> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  let audioSec = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: count }, async () => {
    while (!stopped) audioSec += (await pipeline(path, { language: 'en', dictation: false, diarization: false })).duration;
  }));
  return { audioSec, wallSec: (performance.now() - t0) / 1000 };
}

async function streamOnce(url: string, headers: Record<string, string>, pcm: Int16Array, ends: number[]): Promise<Run> {
  const ws = new WebSocket(url, { headers });
  const run: Run = { partial: [], final: [], lag: [], dropped: 0, finals: 0 };
  let t0 = 0;
  const finalFor = new Set<number>();
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const now = performance.now();
      const m = JSON.parse(String(data)) as { type: string; status?: string; is_final?: boolean; audio_start: number; audio_end: number; words: Array<{ start: number; end: number }>; error?: string };
      if (m.type === 'status' && m.status === 'connected') {
        t0 = performance.now();
        let i = 0;
        const tick = (): void => {
          if (ws.readyState !== WebSocket.OPEN) return;
          const off = i * CHUNK;
          if (off >= pcm.length) return void ws.send(JSON.stringify({ type: 'CloseStream' }));
          const chunk = pcm.subarray(off, off + CHUNK);
          ws.send(JSON.stringify({ audio: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64') }));
          i++;
          setTimeout(tick, Math.max(0, t0 + (i + 1) * 100 - performance.now()));
        };
        setTimeout(tick, 100);
      } else if (m.type === 'error') {
        if (/faster than/.test(m.error ?? '')) run.dropped++;
      } else if (m.type === 'transcript') {
        const sentAt = (sec: number): number => t0 + sec * 1000;
        if (!m.is_final) {
          run.lag.push(now - sentAt(m.audio_end));
          const newest = Math.max(...m.words.map((w) => w.end));
          run.partial.push(now - sentAt(newest));
        } else if (m.words.length > 0) {
          run.finals++;
          // The utterance this final closes: the last true end inside its window.
          const k = ends.findIndex((e) => e > m.audio_start && e <= m.audio_end + 0.05);
          if (k >= 0 && !finalFor.has(k)) {
            finalFor.add(k);
            run.final.push(now - sentAt(ends[k]!));
          }
        }
      }
    });
    ws.on('close', () => resolve());
    ws.on('error', reject);
  });
  return run;
}

const pct = (xs: number[], p: number): number => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number): string => (Number.isNaN(x) ? '   n/a' : `${Math.round(x)}`.padStart(6));
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

/** The recogniser with only the synchronous stream calls (the A/B switch STREAM_BENCH_SYNC). */
function syncOnly(recognizer: SpeechRecognizer & { createStream: NonNullable<SpeechRecognizer['createStream']> }): SpeechRecognizer {
  return {
    name: recognizer.name, sampleRate: recognizer.sampleRate, transcribe: (pcm, o) => recognizer.transcribe(pcm, o),
    createStream(o): SpeechStream {
      const s = recognizer.createStream(o);
      return { accept: (pcm) => s.accept(pcm), partial: () => s.partial(), finalizeUtterance: () => s.finalizeUtterance(), close: () => s.close() };
    },
  };
}

async function main(): Promise<void> {
  if (!have('espeak-ng') || !have('ffmpeg')) {
    console.log('streaming-bench: espeak-ng and ffmpeg are needed to make the speech; skipped');
    return;
  }
  const maxSessions = Number(process.argv[2] ?? 8);
  const liveFirst = process.env.STREAM_BENCH_FIFO !== '1';
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-sbench-'));
  const { pcm, ends } = buildClip(dir);
  const clindoc = await createClindoc(loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dir, CLINDOC_LOG_LEVEL: 'warn' }, dir), { logDestination: pino.destination('/dev/null') });
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const resourcesDir = locateAppFiles().asrDir;
  const medical = process.env.CLINDOC_ASR_MEDICAL !== '0' && clinicalArtefacts(resourcesDir) !== null;
  // No decoder pool: every session starts on a fresh decoder, as the first session of a day does.
  // Search knobs for comparisons (the product's defaults are the engine's own).
  const streamSearch = {
    ...(process.env.CLINDOC_ASR_STREAM_FWDFLAT === '1' ? { fwdflat: true } : {}),
    ...(process.env.CLINDOC_ASR_STREAM_MAXHMMPF ? { maxHmmPerFrame: Number(process.env.CLINDOC_ASR_STREAM_MAXHMMPF) } : {}),
  };
  const threads = Number(process.env.CLINDOC_ASR_THREADS) || undefined;
  const vad = createSileroVad();
  const batchVad = createRobustVad({ model: vad });
  const recognizer = createPocketsphinxRecognizer({ medical, resourcesDir, poolSize: 0, streamSearch, vad: batchVad, liveFirst, ...(threads ? { threads } : {}) });
  const sync = process.env.STREAM_BENCH_SYNC === '1';
  const served = sync ? syncOnly(recognizer) : recognizer;
  const handle = attachStreaming({
    server, logger: pino({ level: 'silent' }), accounts: clindoc.accounts, port: () => port, allowedOrigins: [], allowedHosts: [],
    recognizer: () => served, vad: () => vad, fallbackEndpointer: createEnergyEndpointer, limits: { maxSessionsPerAccount: 64 }, createDecoder: (o) => createStreamDecoder(o),
  });
  const url = `ws://127.0.0.1:${port}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`;
  const accounts = await Promise.all(Array.from({ length: Math.max(1, maxSessions) }, (_, i) => clindoc.accounts.createAccount(`bench-${i}`)));
  const headers = (i: number): Record<string, string> => ({ 'X-API-KEY': accounts[i]!.apiKey, 'X-ACCOUNT-ID': accounts[i]!.account.id });

  console.log(`streaming-bench: ${(pcm.length / RATE).toFixed(1)} s clip, ${UTTERANCES.length} utterances, engine pocketsphinx (${medical ? 'clinical LM' : 'general LM'}), Silero endpointing, 100 ms chunks at real-time pace`);
  const env = (k: string): string => process.env[k] ?? 'default';
  console.log(`recognition ${sync ? 'on the event loop (STREAM_BENCH_SYNC=1)' : 'on the thread pool'}, live first ${liveFirst ? 'on' : 'off (STREAM_BENCH_FIFO=1)'}, ${recognizer.scheduling.threads} recogniser threads; fwdflat ${env('CLINDOC_ASR_STREAM_FWDFLAT')}, maxhmmpf ${env('CLINDOC_ASR_STREAM_MAXHMMPF')}, threads ${env('CLINDOC_ASR_THREADS')}, UV_THREADPOOL_SIZE ${env('UV_THREADPOOL_SIZE')}; ${new Date().toISOString()}, load average ${load()}`);
  await streamOnce(url, headers(0), pcm.subarray(0, RATE * 3), ends); // warm-up: libraries, models
  const row = (runs: Run[]): string => {
    const all = (k: 'partial' | 'final' | 'lag'): number[] => runs.flatMap((r) => r[k]);
    return `${ms(pct(all('partial'), 50))} ${ms(pct(all('partial'), 95))} | ${ms(pct(all('final'), 50))} ${ms(pct(all('final'), 95))} | ${ms(pct(all('lag'), 50))} ${ms(pct(all('lag'), 95))}`;
  };
  if (maxSessions > 0) console.log('sessions | partial ms p50  p95 | final ms p50  p95 | lag ms p50  p95 | finals dropped | real time');
  let sustained = 0;
  for (const n of [1, 2, 4, 6, 8].filter((x) => x <= maxSessions)) {
    const runs = await Promise.all(Array.from({ length: n }, (_, i) => streamOnce(url, headers(i), pcm, ends)));
    const all = (k: 'partial' | 'final' | 'lag'): number[] => runs.flatMap((r) => r[k]);
    const dropped = runs.reduce((s, r) => s + r.dropped, 0);
    const ok = pct(all('final'), 95) < 1500 && pct(all('lag'), 95) < 500 && dropped === 0;
    if (ok) sustained = n;
    console.log(`${String(n).padStart(8)} | ${ms(pct(all('partial'), 50))} ${ms(pct(all('partial'), 95))} | ${ms(pct(all('final'), 50))} ${ms(pct(all('final'), 95))} | ${ms(pct(all('lag'), 50))} ${ms(pct(all('lag'), 95))} | ${String(runs.reduce((s, r) => s + r.finals, 0)).padStart(6)} ${String(dropped).padStart(7)} | ${ok ? 'yes' : 'no'}`);
  }
  if (maxSessions > 0) console.log(`concurrent real-time sessions sustained: ${sustained} (goal >= 4); goals: partial <= 500 ms, final <= 800 ms; load average ${load()}`);

  // Live beside batch: one recogniser for both, as the app composes it.
  const batchFile = join(dir, 'batch.wav');
  const looped = Int16Array.from({ length: pcm.length * 4 }, (_, i) => pcm[i % pcm.length]!);
  writeFileSync(batchFile, wavFile(Buffer.from(looped.buffer, looped.byteOffset, looped.byteLength), RATE));
  const pipeline = createTranscriptionPipeline({ decoder: createFfmpegDecoder(), recognizer: () => recognizer, vad: () => batchVad, diarizer: createClusteringDiarizer() });
  console.log(`live beside batch: 1 session (the clip twice: 8 finals); batch = 2 transcriptions of a ${(pcm.length * 4 / RATE).toFixed(1)} s recording decoding throughout (live first ${liveFirst ? 'on' : 'off'}); load average ${load()}`);
  console.log('phase                 | partial ms p50  p95 | final ms p50  p95 | lag ms p50  p95 | batch audio s/s');
  // Two passes of the clip per phase, one after the other: 8 finals.
  const twice = async (): Promise<Run[]> => [await streamOnce(url, headers(0), pcm, ends), await streamOnce(url, headers(0), pcm, ends)];
  const alone = await twice();
  console.log(`alone                 | ${row(alone)} |`);
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const batch = batchLoad(pipeline, batchFile, 2, stopped);
  // The session starts once batch decoding holds the recogniser threads.
  while (recognizer.scheduling.started.batch === 0) await new Promise((r) => setTimeout(r, 20));
  const beside = await twice();
  stop();
  const { audioSec, wallSec } = await batch;
  console.log(`with 2 batch uploads  | ${row(beside)} | ${(audioSec / wallSec).toFixed(2)}`);
  console.log(`target: final p95 < 800 ms in both; load average ${load()}`);
  await handle.close();
  server.close();
  await recognizer.close();
  await vad.close();
  await clindoc.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
