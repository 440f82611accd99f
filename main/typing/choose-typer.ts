/**
 * Picks the typing adapter for this computer: by platform, by what is installed and reachable,
 * and by the user's preference (`CLINDOC_TYPING`, read by the Electron glue). When none works the
 * answer says why and what to install, so the dictation bar can tell the user instead of
 * dictating into nowhere.
 */
import { TypingError, type TextTyper } from '../services/dictation/typing-port.js';
import { findExecutable, runTool, toolProblem, type RunTool } from './run-tool.js';
import { createSystemClipboardPaster, type SystemClipboard } from './system-clipboard.js';
import { createXclipPaster, type ClipboardPaster } from './x11-clipboard.js';
import { createPasteTyper, createXdotoolTyper } from './xdotool-typer.js';
import { createSendInputTyper, PASTE_PLAN, probeSendInput, sendKeys } from './windows-sendinput.js';
import { createCgEventTyper, PASTE_STROKE, postStrokes, probeCgEvent } from './macos-cgevent.js';

/** `auto` picks the platform's keystroke adapter; `clipboard` pastes every final instead. */
export const TYPING_PREFERENCES = ['auto', 'xdotool', 'sendinput', 'cgevent', 'clipboard'] as const;
export type TypingPreference = (typeof TYPING_PREFERENCES)[number];

export interface ChooseTyperOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** `CLINDOC_TYPING`; default `auto`. */
  preference?: string | undefined;
  /** The system clipboard (Electron's): the paste fallback where xclip is not there. */
  clipboard?: SystemClipboard | undefined;
  /** Milliseconds between keystrokes for xdotool. */
  delayMs?: number;
  find?: (name: string, env: NodeJS.ProcessEnv) => string | undefined;
  run?: RunTool;
}

export type TyperChoice = { ok: true; typer: TextTyper } | { ok: false; reason: string };

const INSTALL_X11 = 'Debian/Ubuntu: sudo apt install xdotool xclip';

/** Chooses the adapter; never throws. */
export async function chooseTextTyper(options: ChooseTyperOptions): Promise<TyperChoice> {
  const preference = (options.preference?.trim() || 'auto') as TypingPreference;
  if (!TYPING_PREFERENCES.includes(preference)) return { ok: false, reason: `CLINDOC_TYPING must be one of ${TYPING_PREFERENCES.join(', ')}` };
  try {
    if (options.platform === 'linux' || options.platform === 'freebsd' || options.platform === 'openbsd') return await chooseX11(options, preference);
    if (options.platform === 'win32') return chooseKeystrokes(preference, 'sendinput', probeSendInput, createSendInputTyper, options.clipboard, () => sendKeys(PASTE_PLAN));
    if (options.platform === 'darwin') return chooseKeystrokes(preference, 'cgevent', probeCgEvent, createCgEventTyper, options.clipboard, () => postStrokes([PASTE_STROKE]));
    return { ok: false, reason: `typing into other applications is not supported on ${options.platform}` };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

function chooseKeystrokes(
  preference: TypingPreference,
  native: 'sendinput' | 'cgevent',
  probe: () => void,
  create: () => TextTyper,
  clipboard: SystemClipboard | undefined,
  pressPaste: () => void,
): TyperChoice {
  if (preference === 'clipboard') {
    if (!clipboard) return { ok: false, reason: 'no system clipboard was handed in for the paste fallback' };
    probe(); // the paste keystroke goes through the same API
    return { ok: true, typer: createPasteTyper('clipboard', createSystemClipboardPaster({ clipboard, pressPaste })) };
  }
  if (preference !== 'auto' && preference !== native) return { ok: false, reason: `CLINDOC_TYPING=${preference} is not available on this system (use ${native} or clipboard)` };
  probe();
  return { ok: true, typer: create() };
}

async function chooseX11(options: ChooseTyperOptions, preference: TypingPreference): Promise<TyperChoice> {
  const env = options.env;
  const find = options.find ?? findExecutable;
  const run = options.run ?? runTool;
  if (preference === 'sendinput' || preference === 'cgevent') return { ok: false, reason: `CLINDOC_TYPING=${preference} is not available on this system (use xdotool or clipboard)` };
  const wayland = env.XDG_SESSION_TYPE === 'wayland' || (Boolean(env.WAYLAND_DISPLAY) && !env.DISPLAY);
  if (wayland && preference !== 'xdotool' && preference !== 'clipboard') {
    return {
      ok: false,
      reason: 'this is a Wayland session, where xdotool reaches only X11 (XWayland) applications; log in to an X11 session, or set CLINDOC_TYPING=xdotool to type into X11 applications only',
    };
  }
  if (!env.DISPLAY) return { ok: false, reason: 'no X display (DISPLAY is not set), so there is no application to type into' };
  const xdotool = find('xdotool', env);
  if (!xdotool) return { ok: false, reason: `xdotool is not installed (${INSTALL_X11})` };
  const probe = await run(xdotool, ['getdisplaygeometry'], { env, timeoutMs: 3000 });
  if (probe.code !== 0) return { ok: false, reason: `xdotool cannot reach the X display ${env.DISPLAY}: ${toolProblem(probe)}` };
  const xclip = find('xclip', env);
  const paster: ClipboardPaster | undefined = xclip
    ? createXclipPaster({ xclip, xdotool, env, run })
    : options.clipboard
      ? createSystemClipboardPaster({
          clipboard: options.clipboard,
          pressPaste: async () => {
            const r = await run(xdotool, ['key', '--clearmodifiers', 'ctrl+v'], { env, timeoutMs: 5000 });
            if (r.code !== 0) throw new TypingError('failed', `xdotool could not press the paste keys: ${toolProblem(r)}`);
          },
        })
      : undefined;
  if (preference === 'clipboard') {
    if (!paster) return { ok: false, reason: `the clipboard fallback needs xclip (${INSTALL_X11})` };
    return { ok: true, typer: createPasteTyper(xclip ? 'clipboard (xclip)' : 'clipboard', paster) };
  }
  return { ok: true, typer: createXdotoolTyper({ xdotool, env, run, ...(paster ? { paster } : {}), ...(options.delayMs ? { delayMs: options.delayMs } : {}) }) };
}
