/**
 * Clindoc's own per-request cost (issue 19, point 1): `GET /v1/notes/{id}` and
 * `POST /v1/macros/detect` against a plain express route serving the same JSON body, in the same
 * run, with autocannon (16 keep-alive connections, a fixed duration each, measured in alternating
 * 2-second slices so that other work on a shared machine weighs on both alike). Prints requests/s,
 * p50/p99 latency, the ratio to the plain route and the targets beside them (Clindoc at least 0.8
 * of the plain rate; p99 under 10 ms). Never fails on a figure.
 *
 * Beside the rates it prints the server process's CPU time per request for each (process.cpuUsage
 * around each slice, threads included): on a machine shared with other work the rates swing with
 * whatever else runs, while the CPU a request costs barely moves, so the CPU ratio (plain ÷
 * Clindoc) says what the rate ratio would be on a server that had its cores to itself. The median
 * of the slice pairs' rate ratios is printed too, being less swayed by one burst than the total.
 *
 *   npm run bench:api                       # 10 s per case
 *   npx tsx bench/api-overhead-bench.ts --seconds 5 --profile /tmp/prof   # Clindoc alone, one .cpuprofile per case
 *
 * The servers run in a child process so that the load generator does not share their event loop.
 * Clindoc runs with its real composition (SQLite in a temp folder, encryption, audit trail, info
 * logs written to a file) and the rate limit raised so the bench measures work, not 429s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { arg, args } from './args.js';

const CONNECTIONS = 16;
const SECONDS = Number(arg('--seconds') ?? 10);
const TARGET_RATIO = 0.8;
const TARGET_P99_MS = 10;
/** Each case is measured in slices of about this length, alternating the two servers. */
const SLICE_SECONDS = 2;

const MACRO_BODY = {
  text: 'Patient in no acute distress. Normal cardiac exam. Insert lungs clear. No peripheral edema.',
  macros: [
    { id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'HEART: regular rate and rhythm, no murmurs, rubs or gallops.' },
    { id: 'nad', examples: ['no acute distress'], expansion_text: 'GENERAL: no acute distress.' },
    { id: 'edema', examples: ['no peripheral edema'], expansion_text: 'EXT: no edema.' },
    { id: 'lungs', examples: ['lungs clear'], expansion_text: 'LUNGS: clear to auscultation bilaterally.', trigger: 'insert' },
  ],
};

interface Ready {
  clindoc: number;
  plain: number;
  headers: Record<string, string>;
  noteId: string;
}

/** Child: boots Clindoc and the plain express app, prints their ports, serves until SIGTERM. */
async function serve(): Promise<void> {
  const { default: express } = await import('express');
  const { loadConfig } = await import('../main/config.js');
  const { createClindoc } = await import('../main/composition.js');
  const { default: pino } = await import('pino');
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-apibench-'));
  const config = loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'info', CLINDOC_RATE_LIMIT: '1000000' }, dataDir);
  // Logs go where a real run sends them (pino's own destination), only to a file instead of stdout.
  const clindoc = await createClindoc(config, { logDestination: pino.destination(join(dataDir, 'server.log')) });
  const port = await clindoc.listen();
  const creds = clindoc.localCredentials!;
  const headers = { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${port}`;
  const created = await fetch(`${base}/v1/notes`, {
    method: 'POST', headers,
    body: JSON.stringify({ transcript: 'Doctor: What brings you in? Patient: Chest pain for two days when I climb stairs. Doctor: Any shortness of breath? Patient: A little.', noteType: { type: 'soap', includeJson: true }, language: 'en' }),
  });
  const noteId = ((await created.json()) as { data: { noteId: string } }).data.noteId;
  let noteBody = '';
  for (let i = 0; i < 600; i++) {
    const r = await fetch(`${base}/v1/notes/${noteId}`, { headers });
    noteBody = await r.text();
    if (!/"status":"(STATUS_PENDING|STATUS_PROCESSING)"/.test(noteBody)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const macroAnswer = await (await fetch(`${base}/v1/macros/detect`, { method: 'POST', headers, body: JSON.stringify(MACRO_BODY) })).text();

  // The plain route: same framework, same body parser, same JSON bodies; none of Clindoc's work.
  const plain = express();
  plain.use(express.json({ limit: '1mb' }));
  const noteJson = JSON.parse(noteBody) as unknown;
  const macroJson = JSON.parse(macroAnswer) as unknown;
  plain.get('/v1/notes/:noteId', (_req, res) => void res.json(noteJson));
  plain.post('/v1/macros/detect', (_req, res) => void res.json(macroJson));
  const plainServer = plain.listen(0, '127.0.0.1');
  await new Promise((resolve) => plainServer.once('listening', resolve));
  const plainPort = (plainServer.address() as { port: number }).port;
  const ready: Ready = { clindoc: port, plain: plainPort, headers, noteId };
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
  // The parent starts and stops the CPU profiler around each measured case (warm-up excluded).
  const session = new Session();
  session.connect();
  process.on('message', (message: { cpu: true } | { profile: 'start' } | { profile: 'stop'; path: string }) => {
    if ('cpu' in message) {
      process.send!({ cpu: process.cpuUsage() });
      return;
    }
    void (async () => {
      if (message.profile === 'start') {
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
      } else {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(message.path, JSON.stringify(profile));
      }
      process.send!({ done: message.profile });
    })();
  });
  process.on('SIGTERM', () => {
    plainServer.close();
    void clindoc.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

interface Figures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Server CPU time (user + system, µs) spent over the measurement; NaN when not taken. */
  cpuMicros: number;
}

type Init = { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };

async function load(url: string, init: Init, seconds = SECONDS): Promise<Figures> {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1, ...init });
  return { requests: result.requests.total, rps: result.requests.total / seconds, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, cpuMicros: NaN };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Measures both servers in alternating slices (plain, Clindoc, plain, …) so that a burst of other
 * work on a shared machine hits both alike. Rate: requests over the whole time; p50/p99: the
 * median of the slices' percentiles.
 */
async function sideBySide(
  urls: { plain?: string; clindoc: string },
  init: Init,
  serverCpu: () => Promise<number>,
): Promise<{ plain?: Figures; clindoc: Figures; sliceRatios: number[] }> {
  const slices = Math.max(1, Math.round(SECONDS / SLICE_SECONDS));
  const runs: { plain: Figures[]; clindoc: Figures[] } = { plain: [], clindoc: [] };
  // Only one server is loaded at a time, so the child's CPU over a slice is that server's work.
  const measured = async (url: string): Promise<Figures> => {
    const before = await serverCpu();
    const figures = await load(url, init, SECONDS / slices);
    return { ...figures, cpuMicros: (await serverCpu()) - before };
  };
  for (let i = 0; i < slices; i++) {
    if (urls.plain) runs.plain.push(await measured(urls.plain));
    runs.clindoc.push(await measured(urls.clindoc));
  }
  const merge = (all: Figures[]): Figures => ({
    requests: all.reduce((sum, f) => sum + f.requests, 0),
    cpuMicros: all.reduce((sum, f) => sum + f.cpuMicros, 0),
    rps: all.reduce((sum, f) => sum + f.rps, 0) / all.length,
    p50: median(all.map((f) => f.p50)),
    p99: median(all.map((f) => f.p99)),
    non2xx: all.reduce((sum, f) => sum + f.non2xx, 0),
    errors: all.reduce((sum, f) => sum + f.errors, 0),
  });
  const sliceRatios = runs.plain.map((plain, i) => runs.clindoc[i]!.rps / plain.rps);
  return { ...(urls.plain ? { plain: merge(runs.plain) } : {}), clindoc: merge(runs.clindoc), sliceRatios };
}

async function main(): Promise<void> {
  const profileDir = arg('--profile');
  const script = fileURLToPath(import.meta.url);
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', script, '--serve'],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const tellChild = (message: Record<string, string>): Promise<void> =>
    new Promise((resolve) => {
      child.once('message', () => resolve());
      child.send(message);
    });
  const serverCpu = (): Promise<number> =>
    new Promise((resolve) => {
      child.once('message', (reply: { cpu: { user: number; system: number } }) => resolve(reply.cpu.user + reply.cpu.system));
      child.send({ cpu: true });
    });
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`the server process exited (${code}) before it was ready`)));
  });
  const before = loadavg();
  console.log(`API overhead: ${CONNECTIONS} keep-alive connections, ${SECONDS} s per case; ${cpus().length} CPU(s), Node ${process.version}; load average ${before.map((l) => l.toFixed(2)).join(' ')}`);
  const cases = [
    { name: 'GET /v1/notes/{id}', method: 'GET' as const, path: `/v1/notes/${ready.noteId}` },
    { name: 'POST /v1/macros/detect', method: 'POST' as const, path: '/v1/macros/detect', body: JSON.stringify(MACRO_BODY) },
  ];
  const row = (who: string, f: Figures): string =>
    `  ${who.padEnd(8)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms` +
    (f.non2xx || f.errors ? `   (${f.non2xx} non-2xx, ${f.errors} errors)` : '');
  for (const c of cases) {
    const init = { method: c.method, headers: ready.headers, ...(c.body ? { body: c.body } : {}) };
    // Warm both (JIT, SQLite page cache) for 2 s before measuring.
    const plainUrl = `http://127.0.0.1:${ready.plain}${c.path}`;
    const clindocUrl = `http://127.0.0.1:${ready.clindoc}${c.path}`;
    if (!profileDir) await load(plainUrl, init, 2);
    await load(clindocUrl, init, 2);
    // While profiling, only Clindoc is loaded, so the profile holds its work alone.
    if (profileDir) await tellChild({ profile: 'start' });
    const measured = await sideBySide(profileDir ? { clindoc: clindocUrl } : { plain: plainUrl, clindoc: clindocUrl }, init, serverCpu);
    if (profileDir) await tellChild({ profile: 'stop', path: join(profileDir, `${c.method.toLowerCase()}-${c.path.split('/')[2]}.cpuprofile`) });
    const plain = measured.plain ?? { requests: 0, rps: NaN, p50: NaN, p99: NaN, non2xx: 0, errors: 0, cpuMicros: NaN };
    const clindoc = measured.clindoc;
    const ratio = clindoc.rps / plain.rps;
    console.log(`${c.name}`);
    console.log(row('plain', plain));
    console.log(row('clindoc', clindoc));
    const cpuPlain = plain.cpuMicros / plain.requests;
    const cpuClindoc = clindoc.cpuMicros / clindoc.requests;
    console.log(`  server CPU per request: plain ${cpuPlain.toFixed(0)} µs, Clindoc ${cpuClindoc.toFixed(0)} µs; CPU ratio ${(cpuPlain / cpuClindoc).toFixed(2)}`);
    if (measured.sliceRatios.length) console.log(`  rate ratio per slice pair: median ${median(measured.sliceRatios).toFixed(2)} (${measured.sliceRatios.map((r) => r.toFixed(2)).join(' ')})`);
    console.log(
      `  ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'});` +
        ` Clindoc p99 ${clindoc.p99} ms (target < ${TARGET_P99_MS} ms: ${clindoc.p99 < TARGET_P99_MS ? 'met' : 'NOT met'})`,
    );
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  if (profileDir) console.log(`server CPU profile written under ${profileDir}`);
}

if (args.includes('--serve')) await serve();
else await main();
