/**
 * Real Clindoc processes for the clinic-mode test and benchmark: `clindoc serve --role …` started
 * as child processes on loopback (each with its own data folder), the CLI's `accounts create`, and
 * small HTTP helpers. Nothing here imports Vitest, so bench/clinic-bench.ts uses it too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, ROOT } from '../support/child.js';

export type Role = 'api' | 'worker' | 'all';

export interface Instance {
  name: string;
  role: Role;
  port: number;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  child: ChildProcess;
  /** The last 256 KiB the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (a service manager's stop), then SIGKILL if it has not exited within `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  /** `kill -9`: no drain, no goodbye to the database. */
  kill9(): Promise<void>;
}

const CLI = join(ROOT, 'main', 'cli.ts');
const KEEP_BYTES = 256 * 1024;

/** Every instance started here and not yet exited, so a failing test or bench still stops them all. */
const live = new Set<Instance>();

/**
 * Starts `clindoc serve --role ROLE` (through main/cli.ts, as `clindoc serve` runs it) on a free
 * loopback port and resolves once it logs `local API listening` with its port and answers
 * `/readyz` with 200. With `logFile` its output goes to that file instead of a pipe (a benchmark's
 * thousands of request lines are then written as a real service writes them, not read back here);
 * the port is then chosen beforehand and readiness alone is awaited.
 */
export async function startInstance(options: { name: string; role: Role; env: Record<string, string>; timeoutMs?: number; logFile?: string }): Promise<Instance> {
  const { name, role, logFile } = options;
  const fixedPort = logFile ? await freePort() : 0;
  const logFd = logFile ? openSync(logFile, 'a') : undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--role', role], {
    cwd: ROOT,
    env: { ...process.env, CLINDOC_LOG_LEVEL: 'info', ...options.env, CLINDOC_PORT: String(fixedPort) },
    stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
  });
  if (logFd !== undefined) closeSync(logFd);
  let out = '';
  const keep = (line: string): void => {
    out += `${line}\n`;
    if (out.length > KEEP_BYTES) out = out.slice(out.length - KEEP_BYTES / 2);
  };
  const output = (): string => {
    if (!logFile) return out;
    const text = readFileSync(logFile, 'utf8');
    return text.slice(Math.max(0, text.length - KEEP_BYTES));
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} (${role}) did not start in time:\n${output()}`)), options.timeoutMs ?? 90_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} (${role}) exited with ${code} before it listened:\n${output()}`));
    });
    if (logFile) {
      clearTimeout(timer);
      resolve(fixedPort);
      return;
    }
    const read = (line: string): void => {
      keep(line);
      if (!line.includes('local API listening')) return;
      try {
        const port = (JSON.parse(line) as { port?: unknown }).port;
        if (typeof port === 'number') {
          clearTimeout(timer);
          resolve(port);
        }
      } catch {
        // Not a log line of ours (a warning printed as text); keep reading.
      }
    };
    createInterface({ input: child.stdout! }).on('line', read);
    createInterface({ input: child.stderr! }).on('line', keep);
  });
  const instance: Instance = {
    name, role, port: 0, base: '', child, exited, output,
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    async kill9() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  live.add(instance);
  void exited.then(() => live.delete(instance));
  try {
    instance.port = await listening;
    instance.base = `http://127.0.0.1:${instance.port}`;
    const ready = async (): Promise<boolean> => {
      if (child.exitCode !== null) throw new Error(`${name} (${role}) exited with ${child.exitCode}:\n${output()}`);
      return (await fetch(`${instance.base}/readyz`).then((r) => r.status, () => 0)) === 200;
    };
    await until(ready, `${name} to be ready`, options.timeoutMs ?? 90_000, 200);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return instance;
}

/** Stops every instance still running (SIGTERM, then SIGKILL), as the end of a test or bench. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((i) => i.stop()));
}

/** `clindoc accounts create --name NAME --json` with the given environment: the account's id and first key. */
export async function createAccount(name: string, env: Record<string, string>): Promise<{ accountId: string; apiKey: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'accounts', 'create', '--name', name, '--json'], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`clindoc accounts create exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as { accountId: string; apiKey: string };
}

/** The headers that authenticate as an account, with a JSON content type. */
export const authHeaders = (account: { accountId: string; apiKey: string }, extra: Record<string, string> = {}): Record<string, string> => ({
  'X-API-KEY': account.apiKey, 'X-ACCOUNT-ID': account.accountId, 'content-type': 'application/json', ...extra,
});

/** Polls `check` every `everyMs` until it is true; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
