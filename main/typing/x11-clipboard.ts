/**
 * Paste through the X11 CLIPBOARD: xclip holds the text, xdotool presses the paste keys, and the
 * previous clipboard text is put back afterwards. Used for characters xdotool cannot type reliably
 * (anything outside the keyboard map: é, °, µ) and as the whole-text fallback for applications
 * that drop synthetic keystrokes.
 *
 * Why xclip runs in the foreground with `-verbose`: it reports when it owns the selection (so the
 * paste keys are not pressed before) and each request it has served (so the next keystrokes are
 * not sent before the application has the text, which keeps the order of mixed text).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { TypingError } from '../services/dictation/typing-port.js';
import { runTool, toolProblem, type RunTool } from './run-tool.js';

export interface XclipPasteOptions {
  /** Path or name of xclip (Debian package `xclip`). */
  xclip: string;
  /** Path or name of xdotool, which presses the paste keys. */
  xdotool: string;
  env?: NodeJS.ProcessEnv;
  /** Keys that paste in the target application, in xdotool's syntax. Default `ctrl+v`. */
  pasteKeys?: string;
  /** How long the application may take to ask for the text after the paste keys. Default 3000 ms. */
  requestTimeoutMs?: number;
  /** Quiet time after the last request before the paste counts as done (browsers ask several times). Default 120 ms. */
  settleMs?: number;
  /** Put the clipboard's previous text back afterwards. Default true. */
  restore?: boolean;
  run?: RunTool;
}

export interface ClipboardPaster {
  paste(text: string): Promise<void>;
}

const OWNED = /Waiting for selection requests/;
const SERVED = /selection request number (\d+)/g;

/** Watches xclip's verbose output: when it owns the selection and how many requests it has served. */
function watch(child: ChildProcess): { owned: Promise<void>; served(): number; changed(): Promise<void>; exited: Promise<void> } {
  let text = '';
  let notify: (() => void) | undefined;
  let resolveOwned!: () => void;
  let rejectOwned!: (err: Error) => void;
  const owned = new Promise<void>((res, rej) => ((resolveOwned = res), (rejectOwned = rej)));
  owned.catch(() => undefined); // a late exit after a timeout must not become an unhandled rejection
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    text += d;
    if (OWNED.test(text)) resolveOwned();
    notify?.();
  });
  child.once('error', (err) => rejectOwned(new TypingError('unavailable', `xclip could not run: ${err.message}`, { cause: err })));
  child.once('exit', (code) => rejectOwned(new TypingError('failed', `xclip stopped before it held the text (exit code ${String(code)})`)));
  return {
    owned,
    exited,
    served: () => Math.max(0, ...[...text.matchAll(SERVED)].map((m) => Number(m[1]) - 1)),
    changed: () => new Promise<void>((res) => (notify = res)),
  };
}

const sleep = (ms: number): Promise<'timeout'> => new Promise((res) => setTimeout(() => res('timeout'), ms));

/** Waits until xclip has served one request; false when the time runs out or xclip is gone. */
async function firstRequest(w: ReturnType<typeof watch>, holder: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (w.served() === 0) {
    const left = deadline - Date.now();
    if (left <= 0 || holder.exitCode !== null || holder.signalCode !== null) return false;
    await Promise.race([w.changed(), w.exited, sleep(left)]);
  }
  return true;
}

/** Creates the xclip + xdotool paster. */
export function createXclipPaster(options: XclipPasteOptions): ClipboardPaster {
  const run = options.run ?? runTool;
  const env = options.env ?? process.env;
  const requestTimeoutMs = options.requestTimeoutMs ?? 3000;
  const settleMs = options.settleMs ?? 120;

  const readPrevious = async (): Promise<string | undefined> => {
    try {
      const r = await run(options.xclip, ['-selection', 'clipboard', '-o', '-t', 'UTF8_STRING'], { env, timeoutMs: 1000 });
      return r.code === 0 ? r.stdout : undefined;
    } catch {
      return undefined; // nothing (or no text) on the clipboard
    }
  };

  /** Hands the previous text back to the clipboard; xclip forks and keeps serving it, as after a normal copy. */
  const restore = (text: string): Promise<void> =>
    new Promise<void>((resolve) => {
      const child = spawn(options.xclip, ['-selection', 'clipboard', '-i'], { shell: false, env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.once('error', () => resolve());
      child.once('exit', () => resolve()); // the parent exits once the forked copy owns the selection
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(text, 'utf8');
    });

  return {
    async paste(text) {
      if (!text) return;
      const previous = options.restore === false ? undefined : await readPrevious();
      const holder = spawn(options.xclip, ['-selection', 'clipboard', '-i', '-verbose'], { shell: false, env, stdio: ['pipe', 'ignore', 'pipe'] });
      const w = watch(holder);
      holder.stdin!.on('error', () => undefined);
      holder.stdin!.end(text, 'utf8');
      try {
        if ((await Promise.race([w.owned, sleep(requestTimeoutMs)])) === 'timeout') throw new TypingError('failed', 'xclip did not take the clipboard in time');
        const keys = await run(options.xdotool, ['key', '--clearmodifiers', options.pasteKeys ?? 'ctrl+v'], { env, timeoutMs: 5000 });
        if (keys.code !== 0) throw new TypingError('failed', `xdotool could not press the paste keys: ${toolProblem(keys)}`);
        if (!(await firstRequest(w, holder, requestTimeoutMs))) {
          throw new TypingError('failed', `the focused application did not take the pasted text (does it paste with ${options.pasteKeys ?? 'ctrl+v'}?)`);
        }
        // Some applications ask several times (TARGETS, then each text type): wait until they stop.
        while ((await Promise.race([w.changed().then(() => 'more' as const), sleep(settleMs)])) === 'more');
      } finally {
        if (previous !== undefined) await restore(previous);
        // Our copy of the dictated text leaves the clipboard either way: patient text does not linger there.
        if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGTERM');
      }
    },
  };
}
