/**
 * The port through which dictated text reaches the application the physician is working in
 * (Dragon's "dictate anywhere"). Adapters live in `main/typing/` (xdotool on X11, SendInput on
 * Windows, CGEvent on macOS, clipboard + paste keystroke as the fallback); the Electron glue picks
 * one. Nothing here does I/O.
 */

/** Types text at the cursor of whichever application has the keyboard focus. */
export interface TextTyper {
  /** The mechanism, for messages and docs: `xdotool`, `sendinput`, `cgevent`, `clipboard (xclip)`, … */
  readonly name: string;
  /**
   * Types `text` exactly, newlines included (as the Return key). Resolves once the keystrokes (or
   * the paste) have been handed to the system; rejects with a {@link TypingError} otherwise.
   */
  type(text: string): Promise<void>;
}

/**
 * Why typing did not happen: `unavailable` (no adapter works here: tool missing, no display,
 * Wayland), `refused` (the system blocked synthetic input: macOS Accessibility permission,
 * Windows UIPI), `failed` (the tool ran and failed, or the application did not take a paste).
 * Messages never contain the text being typed.
 */
export type TypingErrorKind = 'unavailable' | 'refused' | 'failed';

export class TypingError extends Error {
  readonly kind: TypingErrorKind;

  constructor(kind: TypingErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TypingError';
    this.kind = kind;
  }
}
