/**
 * Concurrent V2 uploads: N clients each upload a real-speech WAV at once; prints accept latency
 * (upload to 202), time until every transcription is completed, and audio seconds transcribed
 * per wall-clock second. Prints figures only; never fails on time.
 *   npx tsx bench/uploads-bench.ts [clients=4] [jobConcurrency=1]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../main/config.js';
import { createClindoc } from '../main/composition.js';

const clients = Number(process.argv[2] ?? 4);
const concurrency = process.argv[3] ?? '1';
const dir = mkdtempSync(join(tmpdir(), 'clindoc-upbench-'));
const raw = join(dir, 'raw.wav');
const wav = join(dir, 'speech.wav');
execFileSync('espeak-ng', ['-w', raw, 'The patient is a fifty two year old man with chest pain for two days. Blood pressure one forty over ninety. We will start aspirin and order an electrocardiogram.']);
execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', wav]);
const bytes = new Uint8Array(readFileSync(wav));
const audioSeconds = (bytes.length - 44) / 32000;

const clindoc = createClindoc(
  loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: join(dir, 'data'), CLINDOC_JOB_CONCURRENCY: concurrency, CLINDOC_LOG_LEVEL: 'silent', CLINDOC_RATE_LIMIT: '100000' }, dir),
  { logDestination: new Writable({ write: (_c, _e, done) => done() }) },
);
const port = await clindoc.listen();
const { accountId, apiKey } = clindoc.localCredentials!;
const headers = { 'X-API-KEY': apiKey, 'X-ACCOUNT-ID': accountId };
const base = `http://127.0.0.1:${port}`;

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
      if (r.status === 'completed' || r.status === 'failed') return { status: r.status, ms: performance.now() - started };
      await new Promise((res) => setTimeout(res, 50));
    }
  }),
);
const wall = (performance.now() - started) / 1000;
const sorted = accepted.map((a) => a.acceptMs).sort((a, b) => a - b);
console.log(`clients ${clients}, job concurrency ${concurrency}, ${audioSeconds.toFixed(1)} s of audio each`);
console.log(`upload accepted (202): p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms`);
console.log(`all finished in ${wall.toFixed(2)} s (${done.filter((d) => d.status === 'completed').length}/${clients} completed)`);
console.log(`throughput ${((clients * audioSeconds) / wall).toFixed(2)} audio seconds per second (real-time factor ${(wall / (clients * audioSeconds)).toFixed(3)})`);
await clindoc.close();
rmSync(dir, { recursive: true, force: true });
