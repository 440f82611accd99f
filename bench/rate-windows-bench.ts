/**
 * What sharing rate-limit windows in PostgreSQL costs (issue 18): one upsert per request.
 *
 * 1. The counters alone: `hit()` in memory and in PostgreSQL, one at a time (latency) and with 16
 *    in flight (hits/s), on a pool like the stores' own.
 * 2. `GET /v1/notes/{id}` on two clinic-mode Clindocs (same database, same note), one counting in
 *    PostgreSQL as a clinic does and one in memory, loaded with autocannon (16 keep-alive
 *    connections) in alternating 2-second slices so other work on the machine weighs on both alike,
 *    with the Clindoc process's CPU per request (the database server's own work is not in it).
 *
 * Prints figures, never fails on one.
 *
 *   npx tsx bench/rate-windows-bench.ts [--seconds 10]
 *
 * PostgreSQL: CLINDOC_TEST_PG_URL's cluster (admin URL), or a throwaway one started here.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RateWindows } from '../main/services/rate-windows.js';
import { arg, args } from './args.js';

const SECONDS = Number(arg('--seconds') ?? 10);
const CONNECTIONS = 16;
const SLICE_SECONDS = 2;

interface Ready { pg: number; memory: number; headers: Record<string, string>; noteId: string }

/** Child: two clinic-mode instances on `url`, one per kind of counter; serves until SIGTERM. */
async function serve(url: string): Promise<void> {
  const { loadConfig } = await import('../main/config.js');
  const { createClindoc } = await import('../main/composition.js');
  const { createMemoryRateWindows } = await import('../main/services/rate-windows.js');
  const { default: pino } = await import('pino');
  const root = mkdtempSync(join(tmpdir(), 'clindoc-ratebench-'));
  const shared = join(root, 'shared');
  mkdirSync(shared);
  const key = randomBytes(32).toString('hex');
  const start = async (name: string, windows?: RateWindows) => {
    const dataDir = join(root, name);
    const config = loadConfig({
      CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'info', CLINDOC_DATABASE_URL: url, CLINDOC_ENCRYPTION_KEY: key,
      CLINDOC_SHARED_DIR: shared, CLINDOC_RATE_LIMIT: '1000000',
    }, dataDir);
    mkdirSync(dataDir, { recursive: true });
    // Info logs to a file, as a service writes them.
    const clindoc = await createClindoc(config, {
      logDestination: pino.destination(join(root, `${name}.log`)), createLocalAccount: !windows, ...(windows ? { rateWindows: windows } : {}),
    });
    return { clindoc, port: await clindoc.listen() };
  };
  const pg = await start('pg');
  const memory = await start('memory', createMemoryRateWindows());
  const creds = pg.clindoc.localCredentials!;
  const headers = { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${pg.port}`;
  const created = await fetch(`${base}/v1/notes`, {
    method: 'POST', headers,
    body: JSON.stringify({ transcript: 'Doctor: What brings you in? Patient: Chest pain for two days when I climb stairs. Doctor: Any shortness of breath? Patient: A little.', noteType: { type: 'soap', includeJson: true }, language: 'en' }),
  });
  const noteId = ((await created.json()) as { data: { noteId: string } }).data.noteId;
  for (let i = 0; i < 600; i++) {
    const body = await (await fetch(`${base}/v1/notes/${noteId}`, { headers })).text();
    if (!/"status":"(STATUS_PENDING|STATUS_PROCESSING)"/.test(body)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ready: Ready = { pg: pg.port, memory: memory.port, headers, noteId };
  process.stdout.write(`READY ${JSON.stringify(ready)}\n`);
  // Only one instance is loaded at a time, so this process's CPU over a slice is that instance's work.
  process.on('message', () => {
    const cpu = process.cpuUsage();
    process.send!({ cpu: cpu.user + cpu.system });
  });
  process.on('SIGTERM', () => {
    void Promise.all([pg.clindoc.close(), memory.clindoc.close()]).then(() => {
      rmSync(root, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Latency of one hit at a time, and hits/s with 16 in flight, on distinct keys like distinct accounts. */
async function counters(name: string, windows: RateWindows): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    await windows.hit(`acct-${i % 50}`, 60_000, Date.now());
    times.push(performance.now() - t);
  }
  let hits = 0;
  const until = performance.now() + SECONDS * 1000 / 2;
  await Promise.all(Array.from({ length: CONNECTIONS }, async (_, c) => {
    while (performance.now() < until) {
      await windows.hit(`acct-${(c * 7 + hits) % 50}`, 60_000, Date.now());
      hits += 1;
    }
  }));
  console.log(`  ${name.padEnd(10)} one at a time: p50 ${median(times).toFixed(3)} ms, p99 ${percentile(times, 0.99).toFixed(3)} ms;` +
    ` ${CONNECTIONS} in flight: ${(hits / (SECONDS / 2)).toFixed(0)} hits/s`);
}

interface Figures { rps: number; p50: number; p99: number; non2xx: number; requests: number; cpuMicros: number }

async function load(url: string, headers: Record<string, string>, seconds: number): Promise<Figures> {
  const { default: autocannon } = await import('autocannon');
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1, headers });
  return { rps: r.requests.total / seconds, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, requests: r.requests.total, cpuMicros: NaN };
}

async function main(): Promise<void> {
  const { openCluster } = await import('../test/support/pg-cluster.js');
  const cluster = await openCluster();
  try {
    const url = await cluster.createDatabase();
    const { createPool } = await import('../main/store/pg/sql.js');
    const { migratePg } = await import('../main/store/pg/migrations.js');
    const { createPgRateWindows } = await import('../main/store/pg/rate-windows.js');
    const { createMemoryRateWindows } = await import('../main/services/rate-windows.js');
    console.log(`Rate-limit windows: ${CONNECTIONS} connections, ${SECONDS} s per case; ${cpus().length} CPU(s), Node ${process.version}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const pool = createPool({ url });
    await migratePg(pool);
    console.log('the counters alone');
    await counters('memory', createMemoryRateWindows());
    await counters('postgres', createPgRateWindows(pool));
    await pool.end();

    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', url], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const serverCpu = (): Promise<number> => new Promise((resolve) => {
      child.once('message', (reply: { cpu: number }) => resolve(reply.cpu));
      child.send({ cpu: true });
    });
    const measured = async (url: string, headers: Record<string, string>): Promise<Figures> => {
      const before = await serverCpu();
      const figures = await load(url, headers, SLICE_SECONDS);
      return { ...figures, cpuMicros: (await serverCpu()) - before };
    };
    const ready = await new Promise<Ready>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('READY ') && resolve(JSON.parse(line.slice(6)) as Ready));
      child.once('exit', (code) => reject(new Error(`the server process exited (${code}) before it was ready`)));
    });
    const urls = { postgres: `http://127.0.0.1:${ready.pg}/v1/notes/${ready.noteId}`, memory: `http://127.0.0.1:${ready.memory}/v1/notes/${ready.noteId}` };
    await load(urls.memory, ready.headers, 2);
    await load(urls.postgres, ready.headers, 2);
    const runs: Record<'memory' | 'postgres', Figures[]> = { memory: [], postgres: [] };
    for (let i = 0; i < Math.max(1, Math.round(SECONDS / SLICE_SECONDS)); i++) {
      runs.memory.push(await measured(urls.memory, ready.headers));
      runs.postgres.push(await measured(urls.postgres, ready.headers));
    }
    console.log('GET /v1/notes/{id}, clinic mode (notes in PostgreSQL either way)');
    const rate = (all: Figures[]): number => all.reduce((s, f) => s + f.rps, 0) / all.length;
    for (const name of ['memory', 'postgres'] as const) {
      const all = runs[name];
      const non2xx = all.reduce((s, f) => s + f.non2xx, 0);
      const cpu = all.reduce((s, f) => s + f.cpuMicros, 0) / all.reduce((s, f) => s + f.requests, 0);
      console.log(`  ${name.padEnd(10)} ${rate(all).toFixed(0).padStart(6)} req/s   p50 ${median(all.map((f) => f.p50))} ms   p99 ${median(all.map((f) => f.p99))} ms` +
        `   Clindoc CPU ${cpu.toFixed(0)} µs/request${non2xx ? `   (${non2xx} non-2xx)` : ''}`);
    }
    const ratios = runs.memory.map((m, i) => runs.postgres[i]!.rps / m.rps);
    console.log(`  postgres / memory: ${(rate(runs.postgres) / rate(runs.memory)).toFixed(2)} (per slice pair: ${ratios.map((r) => r.toFixed(2)).join(' ')})`);
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    await cluster.stop();
  }
}

if (args.includes('--serve')) await serve(arg('--serve')!);
else await main();
