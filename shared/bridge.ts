/**
 * What the Electron preload exposes to the renderer as `window.clindoc`: where the local API is
 * and how to authenticate, saving an exported file, the app version and opening the data folder.
 * Declared once here so the preload (which implements it) and the renderer (which calls it)
 * cannot drift; nothing else crosses the bridge.
 */
export interface DesktopBridge {
  /** The local API's origin and this install's credentials; null credentials when none are set up. */
  connection(): Promise<{ baseUrl: string; accountId: string | null; apiKey: string | null }>;
  /** Opens a save dialog and writes `content`; `saved` is false when the user cancels. */
  saveFile(defaultName: string, content: string | Uint8Array): Promise<{ saved: boolean }>;
  version(): Promise<string>;
  /** Opens the data folder in the file manager; resolves to '' or the shell's error text. */
  openDataFolder(): Promise<string>;
  /**
   * The clinic server chosen in Settings, API key included, kept by the OS keychain (Electron
   * safeStorage) in main rather than in the page's localStorage. Absent in a plain browser.
   */
  clinicServer?: ClinicServerVault;
}

/** The sealed clinic-server record: the renderer's JSON of `{ baseUrl, accountId, apiKey }`, or null. */
export interface ClinicServerVault {
  load(): Promise<string | null>;
  /** Saves the record (null forgets it); main refuses anything else. */
  save(value: string | null): Promise<void>;
}
