/**
 * Clinic mode throughput (issue 18): what one more API or worker process buys. For SQLite (one
 * `all` process, the desktop and single-server install, then two on one data folder) and PostgreSQL (`--role api` and
 * `--role worker` processes on one database and one shared folder) it prints:
 *   - GET /v1/notes/{id} requests/s (autocannon, 16 keep-alive connections; with two APIs, 8 on each),
 *     with 1 API process and with 2 (on SQLite two `all` processes on one data folder, one machine);
 *   - note jobs per minute with 1 worker and with 2: a batch submitted at once (alternating APIs
 *     where there are two), timed from the first submission until the last note is done;
 *   - transcription audio-seconds per second with 1 worker and with 2: a batch of recordings of
 *     synthetic speech, the audio's total duration over the time from first upload to last result.
 * with the date, the machine and its load average before and after. It never fails on a figure: a
 * case that cannot run prints why and the rest go on.
 *
 *   npm run bench:clinic
 *   npx tsx bench/clinic-bench.ts --seconds 5 --notes 20 --recordings 4 [--skip-sqlite] [--skip-postgres]
 *
 * Every process is a real `clindoc serve` child writing its info logs to a file in its data folder.
 * The note writer is the embedded one and speech is recognised by pocketsphinx, the defaults of a
 * server without models; the load generator runs in this process, on the same machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { speechWav } from '../test/support/audio.js';
import { clinicUnavailable, openClinic, type Clinic } from '../test/cluster/clinic-env.js';
import { authHeaders, createAccount, startInstance, stopAll, until, type Instance } from '../test/cluster/instances.js';
import { arg, args } from './args.js';

const CONNECTIONS = 16;
const SECONDS = Number(arg('--seconds') ?? 10);
const NOTES = Number(arg('--notes') ?? 40);
const RECORDINGS = Number(arg('--recordings') ?? 6);
/** Set on every process: the bench measures work, not 429s. */
const COMMON_ENV = { CLINDOC_RATE_LIMIT: '1000000', CLINDOC_DRAIN_SECONDS: '5' };

type Account = { accountId: string; apiKey: string };

/** One backend's processes as a case sees them: the APIs to call and the account to call them as. */
interface Setup {
  apis: Instance[];
  account: Account;
}

const TRANSCRIPT =
  '[doctor] What brings you in today? [patient] Chest pain for two days when I climb stairs. [doctor] Any shortness of breath? ' +
  '[patient] A little. [doctor] Blood pressure is one forty over ninety. We will get an ECG and start aspirin. Follow up in one week.';

const SPEECH = [
  'The patient is a fifty two year old man with chest pain for two days. He is short of breath on the stairs.',
  'Blood pressure is one hundred forty over ninety. Heart rate eighty eight. Lungs are clear. No edema.',
  'We will order an electrocardiogram and a chest x ray and start aspirin eighty one milligrams daily.',
  'She reports a sore throat for three days and a mild fever. No cough. Tonsils are red without exudate.',
  'Continue metformin five hundred milligrams twice a day. Check the hemoglobin A one C in three months.',
  'The knee is swollen after a fall on Sunday. There is no fracture on exam. Ice, rest and ibuprofen.',
];

// ---- measurements -------------------------------------------------------------------------------

interface Rate {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function autocannonRun(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Rate> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1, method: 'GET', headers });
  return { rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

/** GET one finished note for SECONDS, the 16 connections split evenly over the APIs, after 2 s of warm-up. */
async function getNoteRate(setup: Setup): Promise<Rate> {
  const noteId = (await submitNotes(setup, 1))[0]!;
  await finished(setup, 'note', [noteId], 60_000);
  const load = (seconds: number): Promise<Rate[]> =>
    Promise.all(setup.apis.map((api) => autocannonRun(`${api.base}/v1/notes/${noteId}`, authHeaders(setup.account), CONNECTIONS / setup.apis.length, seconds)));
  await load(2);
  const runs = await load(SECONDS);
  return {
    rps: runs.reduce((sum, r) => sum + r.rps, 0), p50: Math.max(...runs.map((r) => r.p50)), p99: Math.max(...runs.map((r) => r.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0), errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** Submits `count` notes at once, alternating APIs; resolves with their ids. */
async function submitNotes(setup: Setup, count: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, async (_, i) => {
    const api = setup.apis[i % setup.apis.length]!;
    const res = await fetch(`${api.base}/v1/notes`, { method: 'POST', headers: authHeaders(setup.account), body: JSON.stringify({ transcript: TRANSCRIPT, noteType: { type: 'soap' } }) });
    if (res.status !== 202) throw new Error(`POST /v1/notes answered ${res.status}`);
    return ((await res.json()) as { data: { noteId: string } }).data.noteId;
  }));
}

async function submitRecordings(setup: Setup, wavs: Buffer[]): Promise<string[]> {
  return Promise.all(wavs.map(async (wav, i) => {
    const api = setup.apis[i % setup.apis.length]!;
    const res = await fetch(`${api.base}/v2/audio/transcriptions?diarization=false`, {
      method: 'POST', headers: authHeaders(setup.account, { 'content-type': 'audio/wav' }), body: new Uint8Array(wav),
    });
    if (res.status !== 202) throw new Error(`POST /v2/audio/transcriptions answered ${res.status}`);
    return ((await res.json()) as { id: string }).id;
  }));
}

/**
 * Waits until every id is finished, reading the account's newest 100 of the kind in one request
 * every 250 ms (one list instead of a request per job, so the polling weighs little). Resolves with
 * the finished records; a failed job is an error: a figure over failures would mislead.
 */
async function finished(setup: Setup, kind: 'note' | 'transcription', ids: string[], timeoutMs: number): Promise<Record<string, unknown>[]> {
  const path = kind === 'note' ? '/v1/notes?limit=100' : '/v2/audio/transcriptions?limit=100';
  const wanted = new Set(ids);
  let records: Record<string, unknown>[] = [];
  let turn = 0;
  await until(async () => {
    const api = setup.apis[turn++ % setup.apis.length]!;
    const page = (await (await fetch(`${api.base}${path}`, { headers: authHeaders(setup.account) })).json()) as { data: { items: Record<string, unknown>[] } };
    records = page.data.items.filter((r) => wanted.has(String(r.id)));
    const failed = records.find((r) => r.status === 'STATUS_FAILED' || r.status === 'failed');
    if (failed) throw new Error(`a ${kind} job failed`);
    return records.length === ids.length && records.every((r) => r.status === 'STATUS_DONE' || r.status === 'completed');
  }, `${ids.length} ${kind} jobs`, timeoutMs, 250);
  return records;
}

/** Note jobs per minute: a warm-up pair (one per worker, engines loaded), then NOTES at once. */
async function noteJobsPerMinute(setup: Setup): Promise<number> {
  await finished(setup, 'note', await submitNotes(setup, 2), 60_000);
  const started = performance.now();
  const ids = await submitNotes(setup, NOTES);
  await finished(setup, 'note', ids, 600_000);
  return (NOTES / (performance.now() - started)) * 60_000;
}

/** Audio-seconds recognised per wall-clock second: a warm-up pair, then RECORDINGS at once. */
async function audioSecondsPerSecond(setup: Setup, wavs: Buffer[]): Promise<{ rate: number; audioSeconds: number }> {
  await finished(setup, 'transcription', await submitRecordings(setup, wavs.slice(0, 2)), 180_000);
  const batch = Array.from({ length: RECORDINGS }, (_, i) => wavs[i % wavs.length]!);
  const started = performance.now();
  const ids = await submitRecordings(setup, batch);
  const records = await finished(setup, 'transcription', ids, 900_000);
  const seconds = (performance.now() - started) / 1000;
  const audioSeconds = records.reduce((sum, r) => sum + Number(r.duration ?? 0), 0);
  return { rate: audioSeconds / seconds, audioSeconds };
}

// ---- reporting ----------------------------------------------------------------------------------

const COLUMNS = ['SQLite, 1 all', 'SQLite, 2 all', 'PostgreSQL, 1+1', 'PostgreSQL, 2+2'] as const;
type Column = (typeof COLUMNS)[number];
const ROWS = ['GET /v1/notes/{id} req/s', 'note jobs per minute', 'audio seconds per second'] as const;
type Row = (typeof ROWS)[number];
const table = new Map<string, string>();

/** Runs one case and prints its figure at once; a failure becomes the figure's text. */
async function measure(row: Row, column: Column, run: () => Promise<{ figure: string; detail?: string }>): Promise<void> {
  try {
    const { figure, detail } = await run();
    table.set(`${row}|${column}`, figure);
    console.log(`  ${column.padEnd(16)} ${row.padEnd(26)} ${figure.padStart(8)}${detail ? `   ${detail}` : ''}`);
  } catch (err) {
    table.set(`${row}|${column}`, 'failed');
    console.log(`  ${column.padEnd(16)} ${row.padEnd(26)}   failed: ${(err as Error).message.split('\n')[0]}`);
  }
}

const rateDetail = (r: Rate): string => `p50 ${r.p50} ms, p99 ${r.p99} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`;

async function runCases(column: Column, setup: Setup, wavs: Buffer[]): Promise<void> {
  await measure('GET /v1/notes/{id} req/s', column, async () => {
    const r = await getNoteRate(setup);
    return { figure: r.rps.toFixed(0), detail: rateDetail(r) };
  });
  await measure('note jobs per minute', column, async () => ({ figure: (await noteJobsPerMinute(setup)).toFixed(0), detail: `${NOTES} notes` }));
  await measure('audio seconds per second', column, async () => {
    const { rate, audioSeconds } = await audioSecondsPerSecond(setup, wavs);
    return { figure: rate.toFixed(2), detail: `${RECORDINGS} recordings, ${audioSeconds.toFixed(0)} s of audio` };
  });
}

// ---- backends -----------------------------------------------------------------------------------

async function sqlite(wavs: Buffer[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-clinicbench-sqlite-'));
  try {
    const env = { ...COMMON_ENV, CLINDOC_DATA_DIR: dataDir };
    const account = await createAccount('Bench clinic', env);
    const all = await startInstance({ name: 'all', role: 'all', env, logFile: join(dataDir, 'server.log') });
    await runCases('SQLite, 1 all', { apis: [all], account }, wavs);
    // A second process on the same data folder (one machine): it answers requests and runs jobs too.
    const second = await startInstance({ name: 'all-2', role: 'all', env, logFile: join(dataDir, 'server-2.log') });
    await runCases('SQLite, 2 all', { apis: [all, second], account }, wavs);
    await Promise.all([all.stop(), second.stop()]);
  } catch (err) {
    console.log(`  SQLite: could not start: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres(wavs: Buffer[]): Promise<void> {
  let clinic: Clinic | undefined;
  try {
    clinic = await openClinic(COMMON_ENV);
    const open = clinic;
    // Each process writes its logs into its own data folder, as a service would on its own host.
    const start = (name: string, role: 'api' | 'worker'): Promise<Instance> => {
      const env = open.env(name);
      return startInstance({ name, role, env, logFile: join(open.dataDir(name), 'server.log') });
    };
    const account = await createAccount('Bench clinic', open.env('cli'));
    const [api1] = await Promise.all([start('api-1', 'api'), start('worker-1', 'worker')]);
    await runCases('PostgreSQL, 1+1', { apis: [api1], account }, wavs);
    const [api2] = await Promise.all([start('api-2', 'api'), start('worker-2', 'worker')]);
    await runCases('PostgreSQL, 2+2', { apis: [api1, api2], account }, wavs);
  } catch (err) {
    console.log(`  PostgreSQL: could not set up the clinic: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    await stopAll();
    await clinic?.close();
  }
}

async function main(): Promise<void> {
  const before = loadavg();
  const cpu = cpus();
  console.log(`Clinic mode benchmark, ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpu.length} CPU(s) (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory (${(freemem() / 2 ** 30).toFixed(1)} free), ` +
      `Node ${process.version}; load average before ${before.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(`cases: ${CONNECTIONS} connections for ${SECONDS} s per GET case; ${NOTES} notes; ${RECORDINGS} recordings of synthetic speech`);
  const wavs = SPEECH.map((text) => speechWav(text).bytes);
  if (!args.includes('--skip-sqlite')) await sqlite(wavs);
  if (args.includes('--skip-postgres')) {
    // nothing: asked for SQLite alone
  } else if (clinicUnavailable) {
    console.log(`  PostgreSQL skipped: ${clinicUnavailable}`);
  } else {
    await postgres(wavs);
  }

  console.log('\nsummary (PostgreSQL columns: API processes + worker processes; SQLite columns: processes that each answer and work, on one data folder)');
  console.log(`  ${''.padEnd(26)}${COLUMNS.map((c) => c.padStart(18)).join('')}`);
  for (const row of ROWS) {
    console.log(`  ${row.padEnd(26)}${COLUMNS.map((c) => (table.get(`${row}|${c}`) ?? '-').padStart(18)).join('')}`);
  }
  console.log(`load average after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

await main();
