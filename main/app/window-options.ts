import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The main window's options, per Electron's security checklist: an isolated, sandboxed renderer
 * with no Node integration, reached only through the preload bridge. Pure so tests can check it
 * without Electron.
 */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    title: 'Clindoc',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

/** Only the app's own origin may get a permission, and only the microphone. */
export function permissionAllowed(permission: string, requestingUrl: string, appOrigin: string, mediaTypes: string[] = []): boolean {
  let origin: string;
  try {
    origin = new URL(requestingUrl).origin;
  } catch {
    return false;
  }
  if (origin !== appOrigin) return false;
  if (permission !== 'media') return false;
  return mediaTypes.length > 0 && mediaTypes.every((t) => t === 'audio');
}

/** Navigation stays on the app's own origin; everything else is refused. */
export function navigationAllowed(url: string, appOrigin: string): boolean {
  try {
    return new URL(url).origin === appOrigin;
  } catch {
    return false;
  }
}
