import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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
 */
export async function startHeadless(env: Record<string, string>, options: { cwd?: string } = {}): Promise<{ child: ChildProcess; output: () => string }> {
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
  return { child, output: () => out };
}

/** Runs the `clindoc` CLI and returns its exit code and output. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'clindoc.js'), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
