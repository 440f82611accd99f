import { BrowserWindow, clipboard, globalShortcut, ipcMain, screen, type IpcMainEvent } from 'electron';
import { createDictateAnywhere, type DictationBarPort } from '../services/dictation/dictate-anywhere.js';
import { parseBarEvent } from '../services/dictation/bar-events.js';
import { chooseTextTyper } from '../typing/choose-typer.js';
import type { BarCommand, BarView } from '../../shared/dictation-bar-bridge.js';
import { barBounds, barHeight, dictateShortcut, dictationBarOptions } from './dictation-bar-window.js';
import { navigationAllowed } from './window-options.js';

/**
 * Electron glue for dictate-anywhere, kept thin: the global shortcut, the bar window and its IPC.
 * What happens on each event is decided in main/services/dictation/dictate-anywhere.ts; how text
 * is typed is main/typing/. Only type-checked on the build machines (no Electron binary there).
 */
export interface DictateAnywhereGlue {
  /** The registered accelerator, or undefined when none could be registered. */
  shortcut: string | undefined;
  close(): void;
}

export interface DictateAnywhereOptions {
  appOrigin: string;
  /** The bar's own preload (dist/preload/dictation-bar.cjs). */
  preloadPath: string;
  env: NodeJS.ProcessEnv;
}

/** Starts dictate-anywhere: chooses the typer, registers the shortcut, answers the bar. */
export async function startDictateAnywhere(options: DictateAnywhereOptions): Promise<DictateAnywhereGlue> {
  const choice = await chooseTextTyper({ platform: process.platform, env: options.env, preference: options.env.CLINDOC_TYPING, clipboard });
  if (!choice.ok) console.warn(`[dictate anywhere] typing into other applications is unavailable: ${choice.reason}`);

  let win: BrowserWindow | undefined;
  let lastView: BarView | undefined;
  const barWindow = (): BrowserWindow => {
    if (win && !win.isDestroyed()) return win;
    const w = new BrowserWindow(dictationBarOptions(options.preloadPath, screen.getPrimaryDisplay().workArea));
    // Above full-screen applications too, where dictation is often needed.
    w.setAlwaysOnTop(true, 'screen-saver');
    w.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
    w.webContents.on('will-navigate', (event, url) => {
      if (!navigationAllowed(url, options.appOrigin)) event.preventDefault();
    });
    w.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    w.webContents.on('render-process-gone', () => controller.dispatch({ type: 'capture-failed', message: 'The dictation bar stopped unexpectedly; start dictation again.' }));
    void w.loadURL(`${options.appOrigin}/dictation-bar.html`);
    win = w;
    return w;
  };
  const send = (command: BarCommand): void => {
    const w = barWindow();
    if (w.webContents.isLoading()) w.webContents.once('did-finish-load', () => w.webContents.send('clindoc:bar-command', command));
    else w.webContents.send('clindoc:bar-command', command);
  };

  const bar: DictationBarPort = {
    show: () => barWindow().showInactive(), // never steal the focus from the application being dictated into
    hide: () => win?.hide(),
    startCapture: () => send({ type: 'start' }),
    stopCapture: () => send({ type: 'stop' }),
    render(view) {
      if (win && !win.isDestroyed() && barHeight(view) !== barHeight(lastView)) win.setBounds(barBounds(screen.getPrimaryDisplay().workArea, barHeight(view)));
      lastView = view;
      send({ type: 'view', view });
    },
    copy: (text) => clipboard.writeText(text),
  };
  const controller = createDictateAnywhere({ typer: choice.ok ? choice.typer : { problem: choice.reason }, bar });

  const onBarEvent = (event: IpcMainEvent, raw: unknown): void => {
    if (!win || win.isDestroyed() || event.sender !== win.webContents) return; // only the bar may speak for the bar
    const parsed = parseBarEvent(raw);
    if (parsed) controller.dispatch(parsed);
  };
  ipcMain.on('clindoc:bar-event', onBarEvent);

  const accelerator = dictateShortcut(options.env);
  let registered = false;
  if (accelerator) {
    try {
      registered = globalShortcut.register(accelerator, () => controller.dispatch({ type: 'shortcut' }));
    } catch {
      registered = false; // not a valid accelerator
    }
    if (!registered) console.warn(`[dictate anywhere] the shortcut ${accelerator} could not be registered (not a valid accelerator, or another application holds it); set CLINDOC_DICTATE_SHORTCUT`);
  }

  return {
    shortcut: registered ? accelerator : undefined,
    close() {
      if (registered && accelerator) globalShortcut.unregister(accelerator);
      ipcMain.removeListener('clindoc:bar-event', onBarEvent);
      if (win && !win.isDestroyed()) win.destroy();
    },
  };
}
