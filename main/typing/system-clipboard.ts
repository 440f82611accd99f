/**
 * The clipboard + paste keystroke fallback with a clipboard the caller hands in (Electron's, in
 * `main/app/`), for Windows and macOS, or Linux without xclip. Such a clipboard cannot say when
 * the application has read the text, so the paste is given `settleMs` before the previous text
 * is put back (and only if the clipboard still holds ours).
 */
import type { ClipboardPaster } from './x11-clipboard.js';

/** The two calls the fallback needs from a system clipboard (Electron's `clipboard` has them). */
export interface SystemClipboard {
  readText(): string;
  writeText(text: string): void;
}

export interface SystemClipboardPasteOptions {
  clipboard: SystemClipboard;
  /** Presses the platform's paste keys (Ctrl+V, Command+V) in the focused application. */
  pressPaste(): Promise<void> | void;
  /** Time the application gets to read the clipboard before it is restored. Default 400 ms. */
  settleMs?: number;
}

/** Creates the paster. */
export function createSystemClipboardPaster(options: SystemClipboardPasteOptions): ClipboardPaster {
  const settleMs = options.settleMs ?? 400;
  return {
    async paste(text) {
      if (!text) return;
      const previous = options.clipboard.readText();
      options.clipboard.writeText(text);
      try {
        await options.pressPaste();
        await new Promise((resolve) => setTimeout(resolve, settleMs));
      } finally {
        // Dictated text does not stay on the clipboard; the user's own copy comes back.
        if (options.clipboard.readText() === text) options.clipboard.writeText(previous);
      }
    },
  };
}
