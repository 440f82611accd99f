/**
 * A private X server (Xvfb) and a real X text window for the typing tests. The window is an xterm
 * running `cat` into a file with the terminal in non-canonical mode, so every character the window
 * receives is in the file at once; the test reads the file to see what arrived. Ctrl+V in that
 * xterm pastes the CLIPBOARD (as in ordinary applications) so the clipboard route can be tested too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../../main/typing/run-tool.js';

export interface XSession {
  display: string;
  /** Environment for X clients of this server (DISPLAY set, UTF-8 locale). */
  env: NodeJS.ProcessEnv;
  dir: string;
  close(): Promise<void>;
}

export interface TextWindow {
  /** What the window has received so far. */
  received(): string;
  /** Waits until the window has received `expected` (or more, or the time is up), then returns what it received. */
  waitFor(expected: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** Why the X tests cannot run here, or undefined when Xvfb, xterm and xdotool are installed. */
export function missingTools(): string | undefined {
  const missing = ['Xvfb', 'xterm', 'xdotool', 'xclip'].filter((t) => !findExecutable(t));
  return missing.length ? `${missing.join(', ')} not installed (scripts/setup-system.sh installs them)` : undefined;
}

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** Starts Xvfb on a display it picks itself (`-displayfd`), so parallel runs never collide. */
export async function startXvfb(): Promise<XSession> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1024x768x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let log = '';
  xvfb.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const number = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within 20 s: ${log.slice(-500)}`)), 20_000);
    (xvfb.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(out.trim());
      }
    });
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${String(code)}): ${log.slice(-500)}`));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-x11-'));
  const display = `:${number}`;
  return {
    display,
    dir,
    env: { ...process.env, DISPLAY: display, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    async close() {
      await stop(xvfb);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let windows = 0;

/**
 * Opens the text window, gives it the keyboard focus, and returns once it is ready to receive keys.
 * `ctrlVPastes: false` leaves xterm's own Ctrl+V (no paste), for an application that ignores the paste keys.
 */
export async function openTextWindow(x: XSession, options: { ctrlVPastes?: boolean } = {}): Promise<TextWindow> {
  const title = `clindoc-typing-target-${process.pid}-${++windows}`;
  const file = join(x.dir, `${title}.txt`);
  const ready = join(x.dir, `${title}.ready`);
  // The file names come from mkdtemp and the window number; `sh -c` gets them as arguments, not as code.
  const script = 'stty -icanon -echo min 1 && : > "$2" && exec cat > "$1"';
  const term = spawn(
    'xterm',
    [
      '-u8', '-title', title,
      ...(options.ctrlVPastes === false ? [] : ['-xrm', 'XTerm*VT100.translations: #override Ctrl<Key>v: insert-selection(CLIPBOARD)']),
      '-e', 'sh', '-c', script, 'sh', file, ready,
    ],
    { env: x.env, stdio: 'ignore' },
  );
  const focus = await new Promise<number | null>((resolve) => {
    // --onlyvisible: focus can be given only once the window is mapped, not as soon as it exists.
    const p = spawn('xdotool', ['search', '--sync', '--onlyvisible', '--name', `^${title}$`, 'windowfocus', '--sync'], { env: x.env, stdio: 'ignore' });
    p.once('exit', resolve);
  });
  if (focus !== 0) throw new Error('could not focus the text window');
  const received = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  await until(() => existsSync(ready), 10_000, 'the text window did not start cat');
  return {
    received,
    async waitFor(expected, timeoutMs = 20_000) {
      await until(() => {
        const now = received();
        return now === expected || now.length > expected.length;
      }, timeoutMs).catch(() => undefined); // the assertion on what arrived says more than a timeout
      return received();
    },
    close: () => stop(term),
  };
}

/** Polls a condition (a file the window writes) until it holds or the time is up. */
export async function until(check: () => boolean, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
