/**
 * What crosses between the dictation bar window (a small always-on-top renderer that captures the
 * microphone and streams it to the local API) and the main process (which decides where final
 * text goes and types it into the focused application). Declared once here so the bar's preload,
 * the bar page and the main process's decision logic cannot drift.
 */

import type { ClinicServerVault } from './bridge.js';

/** Main process to bar: open or close the microphone, or draw a new view. */
export type BarCommand = { type: 'start' } | { type: 'stop' } | { type: 'view'; view: BarView };

/** Bar to main process: what the microphone and the recogniser did, and the user's clicks. */
export type BarEvent =
  | { type: 'capture-started' }
  | { type: 'capture-stopped' }
  | { type: 'capture-failed'; message: string }
  | { type: 'partial'; text: string }
  | { type: 'final'; text: string }
  /** The bar's own Start/Stop button: same as the global shortcut. */
  | { type: 'toggle' }
  /** The user asked for the kept text on the clipboard. */
  | { type: 'copy-held' }
  /** The user closed the message (and any text kept for copying). */
  | { type: 'dismiss' };

/** What the bar shows. */
export interface BarView {
  status: 'idle' | 'starting' | 'listening' | 'stopping';
  /** The words being recognised, not yet final. */
  partial: string;
  /** Where final text goes, e.g. "Typing at the cursor (xdotool)". */
  target: string;
  message?: { kind: 'info' | 'error'; text: string };
  /** Final text that could not be typed, kept so the user can copy it; '' when none. */
  held: string;
}

/** The bar's preload exposes this as `window.clindocBar`; nothing else crosses. */
export interface DictationBarBridge {
  /** The local API's origin and credentials (the same answer the main window gets). */
  connection(): Promise<{ baseUrl: string; accountId: string | null; apiKey: string | null }>;
  /** The clinic server chosen in Settings, read from the OS keychain (shared/bridge.ts); absent outside the desktop app. */
  clinicServer?: Pick<ClinicServerVault, 'load'>;
  /** Calls `listener` for each command from the main process; returns a function that stops listening. */
  onCommand(listener: (command: BarCommand) => void): () => void;
  report(event: BarEvent): void;
}
