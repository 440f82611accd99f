import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { databaseEnv, onPostgres } from './database.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** A port that was free a moment ago (for child processes that need a fixed port). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `npm run serve`'s entry point as a real child process and waits until it listens.
 * `cwd` (default the repository) is the child's working directory, as a service manager would set it.
 * With CLINDOC_TEST_DATABASE=postgres the data folder's database (support/database.ts) is handed in,
 * the same one each time the folder is started again, and dropped when the test file ends.
 * `credentials()` reads the local account from the data folder's local-credentials.json: the first
 * start writes it on SQLite; a clinic server makes no account of its own, so on PostgreSQL one is
 * created first with `clindoc accounts create`, as an administrator would, and kept in that file.
 */
export async function startHeadless(
  env: Record<string, string>,
  options: { cwd?: string } = {},
): Promise<{ child: ChildProcess; output: () => string; credentials: () => { accountId: string; apiKey: string } }> {
  const { CLINDOC_DATA_DIR: dataDir } = env;
  env = { ...(dataDir ? await databaseEnv(dataDir, env) : {}), ...env };
  if (onPostgres && dataDir && !existsSync(join(dataDir, 'local-credentials.json'))) {
    const made = await runCli(['accounts', 'create', '--name', 'Test clinic', '--json'], env);
    // A configuration the CLI refuses, the server refuses too: its start below reports why.
    if (made.code === 0) {
      const { accountId, apiKey } = JSON.parse(made.stdout) as { accountId: string; apiKey: string };
      writeFileSync(join(dataDir, 'local-credentials.json'), JSON.stringify({ accountId, apiKey }), { mode: 0o600 });
    }
  }
  // `--import tsx` is resolved from the working directory, so from elsewhere the loader is named by path.
  const loader = options.cwd ? pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href : 'tsx';
  const child = spawn(process.execPath, ['--import', loader, join(ROOT, 'main', 'headless.ts')], {
    cwd: options.cwd ?? ROOT, env: { ...process.env, CLINDOC_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const check = (): void => {
      if (out.includes('local API listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  child.removeAllListeners('exit');
  const credentials = (): { accountId: string; apiKey: string } => {
    if (!dataDir) throw new Error('credentials() needs CLINDOC_DATA_DIR');
    return JSON.parse(readFileSync(join(dataDir, 'local-credentials.json'), 'utf8')) as { accountId: string; apiKey: string };
  };
  return { child, output: () => out, credentials };
}

/** Runs the `clindoc` CLI and returns its exit code and output (on the data folder's database, as startHeadless). */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { CLINDOC_DATA_DIR: dataDir } = env;
  env = { ...(dataDir ? await databaseEnv(dataDir, env) : {}), ...env };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'clindoc.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
