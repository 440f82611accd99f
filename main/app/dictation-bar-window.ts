import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';
import type { BarView } from '../../shared/dictation-bar-bridge.js';
import { windowOptions } from './window-options.js';

/** The global shortcut that starts and stops dictate-anywhere, unless `CLINDOC_DICTATE_SHORTCUT` names another. */
export const DEFAULT_DICTATE_SHORTCUT = 'CommandOrControl+Shift+D';

/** The accelerator to register: `CLINDOC_DICTATE_SHORTCUT` (Electron accelerator syntax) or the default; `off` disables it. */
export function dictateShortcut(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.CLINDOC_DICTATE_SHORTCUT?.trim();
  if (value?.toLowerCase() === 'off') return undefined;
  return value || DEFAULT_DICTATE_SHORTCUT;
}

export const BAR_WIDTH = 560;
/** Taller when it shows text kept after a failure (a text box and its buttons). */
export const barHeight = (view: Pick<BarView, 'held' | 'message'> | undefined): number => (view?.held ? 190 : view?.message ? 110 : 78);

/** Top centre of the work area (clear of the taskbar/menu bar), where a glance finds it and it hides little. */
export function barBounds(workArea: Rectangle, height = barHeight(undefined)): Rectangle {
  const width = Math.min(BAR_WIDTH, workArea.width);
  return { x: Math.round(workArea.x + (workArea.width - width) / 2), y: workArea.y + 12, width, height };
}

/**
 * The dictation bar's window: frameless, always on top, never taking the keyboard focus (the
 * text goes to the application the physician is in, so the bar must not become the focused
 * window), out of the taskbar. Its renderer has exactly the main window's security settings
 * (isolated, sandboxed, no Node), and is not throttled in the background, since it carries the
 * microphone while another application is in front.
 */
export function dictationBarOptions(preloadPath: string, workArea: Rectangle): BrowserWindowConstructorOptions {
  const secure = windowOptions(preloadPath).webPreferences!;
  return {
    ...barBounds(workArea),
    title: 'Clindoc dictation',
    show: false,
    frame: false,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    focusable: false,
    skipTaskbar: true,
    webPreferences: { ...secure, spellcheck: false, backgroundThrottling: false },
  };
}
