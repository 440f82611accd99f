/**
 * Concurrent V2 uploads through the whole app (HTTP, job runner, ffmpeg, voice activity,
 * recognition): for 1, 2 and 4 clients each uploading the same recording at once, prints accept
 * latency (upload to 202), time until every transcription is completed, and audio seconds
 * transcribed per wall-clock second (its inverse is the real-time factor).
 *
 * The recording is real speech when Debian's pocketsphinx-testdata is installed (its five
 * LibriVox readings, 24.7 s, joined with 1 s pauses, plus the JFK clip of eval-wer's samples
 * folder when present), else espeak-ng reading clinical sentences. Prints figures only; never
 * fails on time. The load average is printed because the machine may be shared.
 *   npx tsx bench/uploads-bench.ts [clients=1,2,4] [jobConcurrency=1]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../main/config.js';
import { createClindoc } from '../main/composition.js';

const levels = (process.argv[2] ?? '1,2,4').split(',').map(Number).filter((n) => n > 0);
const concurrency = process.argv[3] ?? '1';
const LIBRIVOX = process.env.CLINDOC_PS_TESTDATA ? join(process.env.CLINDOC_PS_TESTDATA, 'librivox') : '/usr/share/pocketsphinx/test/data/librivox';
const JFK = join(process.env.CLINDOC_SPEECH_SAMPLES ?? '/tmp/clindoc-speech-samples', 'jfk.wav');
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

/** Writes the recording; returns what it is. */
function makeRecording(dir: string, wav: string): string {
  const real = existsSync(LIBRIVOX) ? readdirSync(LIBRIVOX).filter((f) => f.endsWith('.wav')).sort().map((f) => join(LIBRIVOX, f)) : [];
  if (existsSync(JFK)) real.push(JFK);
  if (real.length) {
    // Each clip at 16 kHz mono, then 1 s of silence after it, joined into one file.
    const inputs = real.flatMap((f) => ['-i', f]);
    const chain = real.map((_, i) => `[${i}:a]aresample=16000,aformat=channel_layouts=mono,apad=pad_dur=1[a${i}]`).join(';');
    const joined = `${real.map((_, i) => `[a${i}]`).join('')}concat=n=${real.length}:v=0:a=1[out]`;
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', `${chain};${joined}`, '-map', '[out]', '-ac', '1', '-ar', '16000', wav]);
    return `real speech (${real.length} recordings: pocketsphinx-testdata LibriVox${existsSync(JFK) ? ', JFK' : ''})`;
  }
  const raw = join(dir, 'raw.wav');
  execFileSync('espeak-ng', ['-w', raw, 'The patient is a fifty two year old man with chest pain for two days. Blood pressure one forty over ninety. We will start aspirin and order an electrocardiogram.']);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', wav]);
  return 'espeak-ng speech (pocketsphinx-testdata not installed)';
}

const dir = mkdtempSync(join(tmpdir(), 'clindoc-upbench-'));
const wav = join(dir, 'speech.wav');
const what = makeRecording(dir, wav);
const bytes = new Uint8Array(readFileSync(wav));
const audioSeconds = (bytes.length - 44) / 32000;

const clindoc = await createClindoc(
  loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: join(dir, 'data'), CLINDOC_JOB_CONCURRENCY: concurrency, CLINDOC_LOG_LEVEL: 'silent', CLINDOC_RATE_LIMIT: '100000' }, dir),
  { logDestination: new Writable({ write: (_c, _e, done) => done() }) },
);
const port = await clindoc.listen();
const { accountId, apiKey } = clindoc.localCredentials!;
const headers = { 'X-API-KEY': apiKey, 'X-ACCOUNT-ID': accountId };
const base = `http://127.0.0.1:${port}`;

/** Uploads `clients` copies at once and waits for all; returns accept latencies and wall time. */
async function round(clients: number): Promise<{ acceptMs: number[]; wall: number; completed: number }> {
  const started = performance.now();
  const accepted = await Promise.all(
    Array.from({ length: clients }, async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: bytes });
      const { id } = (await res.json()) as { id: string };
      return { id, acceptMs: performance.now() - t0 };
    }),
  );
  const done = await Promise.all(
    accepted.map(async ({ id }) => {
      for (;;) {
        const r = (await (await fetch(`${base}/v2/audio/transcriptions/${id}`, { headers })).json()) as { status: string };
        if (r.status === 'completed' || r.status === 'failed') return r.status;
        await new Promise((res) => setTimeout(res, 50));
      }
    }),
  );
  return { acceptMs: accepted.map((a) => a.acceptMs).sort((a, b) => a - b), wall: (performance.now() - started) / 1000, completed: done.filter((d) => d === 'completed').length };
}

console.log(`uploads-bench: ${what}, ${audioSeconds.toFixed(1)} s each; job concurrency ${concurrency}; ${availableParallelism()} cores; ${new Date().toISOString()}; load average ${load()}`);
await round(1); // warm-up: recogniser models, voice activity model
console.log('uploads | accepted p50 / max ms | all done s | completed | audio s per s | RTF | load');
for (const clients of levels) {
  const r = await round(clients);
  const rate = (clients * audioSeconds) / r.wall;
  console.log(
    `${String(clients).padStart(7)} | ${r.acceptMs[Math.floor(r.acceptMs.length / 2)]!.toFixed(0).padStart(8)} / ${r.acceptMs[r.acceptMs.length - 1]!.toFixed(0).padStart(4)} | ${r.wall.toFixed(2).padStart(10)} | ${`${r.completed}/${clients}`.padStart(9)} | ${rate.toFixed(2).padStart(13)} | ${(1 / rate).toFixed(3)} | ${loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(`target: RTF <= 0.3 on 2 cores for real recordings; load average ${load()}`);
await clindoc.close();
rmSync(dir, { recursive: true, force: true });
