import { app, BrowserWindow, ipcMain, session, shell, dialog, safeStorage } from 'electron';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { locateAppFiles } from '../app-files.js';
import { createClindoc, readLocalCredentials, saveLocalCredentials, type Clindoc } from '../composition.js';
import { navigationAllowed, permissionAllowed, windowOptions } from './window-options.js';
import { loadKeychainKey } from './keychain-key.js';
import { createClinicServerVault } from './clinic-server-vault.js';
import { startDictateAnywhere } from './dictate-anywhere.js';

/**
 * Electron glue only: single instance, the window, permissions, the preload bridge's handlers and
 * graceful quit. The local API is the same composition `npm run serve` uses.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
let clindoc: Clindoc | undefined;
let appOrigin = '';

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.whenReady().then(start, (err: unknown) => fatal(err));
}

function fatal(err: unknown): void {
  const message = err instanceof ConfigError ? `Configuration error: ${err.message}` : `Clindoc could not start: ${(err as Error).message}`;
  dialog.showErrorBox('Clindoc', message);
  app.exit(1);
}

async function start(): Promise<void> {
  const env = { ...process.env, CLINDOC_DATA_DIR: process.env.CLINDOC_DATA_DIR ?? app.getPath('userData') };
  // Packaged: bundled resources sit in process.resourcesPath (electron-builder extraResources) and
  // the interface in the app archive. From a checkout: the repository, whatever the working directory.
  const files = locateAppFiles(app.isPackaged ? { resourcesPath: process.resourcesPath, appPath: app.getAppPath() } : {});
  const config = loadConfig(env, app.isPackaged ? app.getAppPath() : process.cwd(), files);
  // The data folder's master key is kept by the OS keychain (safeStorage) when there is one.
  const keychainKey = process.env.CLINDOC_ENCRYPTION_KEY ? undefined : loadKeychainKey(safeStorage, config.dataDir);
  clindoc = await createClindoc(config, keychainKey ? { keychainKey } : {});
  // The local account this first start made is kept for the window's connection and `clindoc credentials` (owner-only).
  saveLocalCredentials(config.dataDir, clindoc.localCredentials);
  const port = await clindoc.listen();
  appOrigin = `http://127.0.0.1:${port}`;
  const credentials = readLocalCredentials(config.dataDir);

  session.defaultSession.setPermissionRequestHandler((wc, permission, callback, details) => {
    callback(permissionAllowed(permission, wc.getURL(), appOrigin, (details as { mediaTypes?: string[] }).mediaTypes ?? []));
  });
  session.defaultSession.setPermissionCheckHandler((_wc, permission, requestingOrigin) => permission === 'media' && requestingOrigin === appOrigin);

  ipcMain.handle('clindoc:connection', () => ({ baseUrl: appOrigin, accountId: credentials?.accountId ?? null, apiKey: credentials?.apiKey ?? null }));
  // The clinic server chosen in Settings, its API key included, sealed by the OS keychain (issue 29).
  const clinicServer = createClinicServerVault(safeStorage, config.dataDir);
  ipcMain.handle('clindoc:clinic-server-load', () => clinicServer.load());
  ipcMain.handle('clindoc:clinic-server-save', (_e, value: unknown) => void clinicServer.save(value));
  ipcMain.handle('clindoc:version', () => app.getVersion());
  ipcMain.handle('clindoc:open-data-folder', () => shell.openPath(config.dataDir));
  ipcMain.handle('clindoc:save-file', async (_e, args: { defaultName: string; content: string | Uint8Array }) => {
    const win = BrowserWindow.getFocusedWindow();
    const result = win ? await dialog.showSaveDialog(win, { defaultPath: args.defaultName }) : await dialog.showSaveDialog({ defaultPath: args.defaultName });
    if (result.canceled || !result.filePath) return { saved: false };
    await writeFile(result.filePath, typeof args.content === 'string' ? args.content : Buffer.from(args.content));
    return { saved: true };
  });

  const win = new BrowserWindow(windowOptions(join(here, '..', '..', 'preload', 'index.cjs')));
  win.webContents.on('will-navigate', (event, url) => {
    if (!navigationAllowed(url, appOrigin)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());
  await win.loadURL(`${appOrigin}/`);
  // Dictate anywhere: a global shortcut, the dictation bar, finals typed where the cursor is.
  const dictate = await startDictateAnywhere({ appOrigin, preloadPath: join(here, '..', '..', 'preload', 'dictation-bar.cjs'), env: process.env });
  win.on('closed', () => dictate.close()); // the hidden bar must not keep the app alive
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !clindoc) return;
  event.preventDefault();
  quitting = true;
  // Running jobs finish (or stay queued for the next start); the database closes cleanly.
  const closing = clindoc;
  void closing
    .close()
    .catch((err: unknown) => closing.logger.error({ errName: (err as Error)?.name }, 'Clindoc did not close cleanly'))
    .finally(() => app.exit(0));
});
app.on('window-all-closed', () => app.quit());
