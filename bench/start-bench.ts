/**
 * Start time of `clindoc serve` (issue 29 point 7's goal: under 2 s to `/openapi.json`): starts the
 * server as a user does (bin/clindoc.js, the compiled build on the pinned runtime when the build is
 * current), times the first `/openapi.json` answer, stops it with SIGTERM and starts it again on
 * the same data folder. Prints each run and the median of the later starts.
 *
 * Run: npm run bench:start [-- --runs N]   (rebuild first when sources changed: npm run build:server)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg } from './args.js';

const ROOT = join(import.meta.dirname, '..');
const runs = Number(arg('--runs') ?? 5);

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function startOnce(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'clindoc.js'), 'serve'], {
    cwd: ROOT, stdio: 'ignore', env: { ...process.env, CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'warn' },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`clindoc serve exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/openapi.json`).then((r) => r.ok, () => false);
      if (ok) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-start-bench-'));
try {
  const first = await startOnce(dataDir);
  console.log(`first start (creates the database and the local account): ${first.toFixed(0)} ms to /openapi.json`);
  const later: number[] = [];
  for (let i = 0; i < runs; i++) later.push(await startOnce(dataDir));
  later.sort((a, b) => a - b);
  console.log(`later starts (${runs}): ${later.map((ms) => ms.toFixed(0)).join(', ')} ms; median ${later[Math.floor(later.length / 2)]!.toFixed(0)} ms`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
