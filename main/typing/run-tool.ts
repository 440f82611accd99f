/**
 * Runs the small system tools the X11 adapters use (xdotool, xclip) as child processes, always by
 * file name and argument list, never through a shell: dictated text is one argument and cannot
 * be read as a command, whatever it contains (`$(…)`, `;`, quotes).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { TypingError } from '../services/dictation/typing-port.js';

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the tool's standard input, then closed. */
  input?: string;
  /** Killed (SIGKILL) after this long; the promise then rejects with a `failed` TypingError. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Runs `file` with `args` (no shell) and resolves with its exit code and output. */
export type RunTool = (file: string, args: string[], options?: RunOptions) => Promise<ToolResult>;

/** The default {@link RunTool}: `spawn` with `shell: false`. A missing tool rejects as `unavailable`. */
export const runTool: RunTool = (file, args, options = {}) =>
  new Promise<ToolResult>((resolve, reject) => {
    const child = spawn(file, args, { shell: false, env: options.env ?? process.env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          if (settled) return;
          settled = true;
          child.kill('SIGKILL');
          reject(new TypingError('failed', `${file} did not finish within ${options.timeoutMs} ms`));
        }, options.timeoutMs)
      : undefined;
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new TypingError('unavailable', `${file} is not installed`, { cause: err }) : new TypingError('failed', `${file} could not run: ${err.message}`, { cause: err }));
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) {
      child.stdin!.on('error', () => undefined); // a tool that exits early closes its end; 'close' reports it
      child.stdin!.end(options.input, 'utf8');
    }
  });

/** The full path of an executable found on `PATH`, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A tool's error output reduced to one short line for a message (it never holds typed text). */
export function toolProblem(result: ToolResult): string {
  const line = result.stderr.split('\n').map((l) => l.trim()).find(Boolean);
  return line ? line.slice(0, 200) : `exit code ${String(result.code)}`;
}
