/**
 * Reads a message from the dictation bar's renderer. The renderer is treated as untrusted input:
 * only the known event types pass, with strings of bounded length; the typer's own answers
 * (`typed`, `typing-failed`) and the shortcut can never be forged from the page.
 */
import type { BarEvent } from '../../../shared/dictation-bar-bridge.js';

/** Longest final or partial accepted (far above one utterance). */
export const MAX_EVENT_TEXT = 20_000;
/** Longest error message shown in the bar. */
export const MAX_EVENT_MESSAGE = 500;

/** The event, or undefined when `raw` is not a well-formed bar event. */
export function parseBarEvent(raw: unknown): BarEvent | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, text, message } = raw as { type?: unknown; text?: unknown; message?: unknown };
  switch (type) {
    case 'capture-started':
    case 'capture-stopped':
    case 'toggle':
    case 'copy-held':
    case 'dismiss':
      return { type };
    case 'partial':
    case 'final':
      return typeof text === 'string' && text.length <= MAX_EVENT_TEXT ? { type, text } : undefined;
    case 'capture-failed':
      return typeof message === 'string' ? { type, message: message.slice(0, MAX_EVENT_MESSAGE) } : undefined;
    default:
      return undefined;
  }
}
