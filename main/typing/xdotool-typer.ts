/**
 * Typing on X11 through xdotool (Debian package `xdotool`, libxdo's command-line tool):
 * `xdotool type --clearmodifiers --delay N -- TEXT`, run without a shell.
 *
 * xdotool types a character that is not on the keyboard map (é, °, µ under a US map) by remapping
 * a spare key for a moment; applications that look the key up after the map is restored see the
 * wrong character or none (seen under Xvfb with xterm: characters dropped at xdotool's default
 * 12 ms delay). So such characters go through the clipboard when xclip is there
 * (x11-clipboard.ts), in order with the typed text; without xclip they are typed one at a time
 * with a longer delay, which is best effort.
 */
import { TypingError, type TextTyper } from '../services/dictation/typing-port.js';
import { chunkText, mergeShortRuns, normaliseTypedText, splitKeymapRuns } from './text-runs.js';
import { runTool, toolProblem, type RunTool } from './run-tool.js';
import type { ClipboardPaster } from './x11-clipboard.js';

export interface XdotoolTyperOptions {
  /** Path or name of xdotool. */
  xdotool: string;
  /** Environment of the tool; `DISPLAY` must name the X server. */
  env?: NodeJS.ProcessEnv;
  /** Milliseconds between keystrokes. Default 12 (xdotool's own); slow applications may need more. */
  delayMs?: number;
  /** Route for characters outside the keyboard map; without it they are typed slowly. */
  paster?: ClipboardPaster;
  /** Delay used for characters outside the keyboard map when there is no paster. Default 60 ms. */
  remapDelayMs?: number;
  run?: RunTool;
}

/** Longest piece handed to one xdotool call (well under the kernel's limit on one argument). */
const PIECE = 1000;

/** Creates the X11 typer. */
export function createXdotoolTyper(options: XdotoolTyperOptions): TextTyper {
  const run = options.run ?? runTool;
  const env = options.env ?? process.env;
  const delay = options.delayMs ?? 12;

  const typeRaw = async (text: string, delayMs: number): Promise<void> => {
    for (const piece of chunkText(text, PIECE)) {
      // `--` ends the options: text starting with '-' is still text. No shell, so `$(…)`, `;` and quotes are typed as they are.
      const r = await run(options.xdotool, ['type', '--clearmodifiers', '--delay', String(delayMs), '--', piece], {
        env,
        timeoutMs: 10_000 + piece.length * delayMs * 3,
      });
      if (r.code !== 0) throw new TypingError(/Can't open display|cannot open display/i.test(r.stderr) ? 'unavailable' : 'failed', `xdotool could not type: ${toolProblem(r)}`);
    }
  };

  return {
    name: options.paster ? 'xdotool (clipboard for characters outside the keyboard map)' : 'xdotool',
    async type(text) {
      const runs = splitKeymapRuns(normaliseTypedText(text));
      for (const run of options.paster ? mergeShortRuns(runs) : runs) {
        if (run.keymap) await typeRaw(run.text, delay);
        else if (options.paster) await options.paster.paste(run.text);
        else await typeRaw(run.text, Math.max(delay, options.remapDelayMs ?? 60));
      }
    },
  };
}

/**
 * The clipboard-only typer: the whole text is pasted. For applications that drop synthetic
 * keystrokes (some remote-desktop clients) or when typing is too slow for long text.
 */
export function createPasteTyper(name: string, paster: ClipboardPaster): TextTyper {
  return {
    name,
    type: (text) => paster.paste(normaliseTypedText(text)),
  };
}
