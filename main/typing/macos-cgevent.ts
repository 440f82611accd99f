/**
 * Typing on macOS through Quartz event services (CoreGraphics), bound with koffi: keyboard events
 * carrying a Unicode string (CGEventKeyboardSetUnicodeString, at most 20 UTF-16 units each), so
 * any character arrives whatever the keyboard layout; newline and tab go as the Return and Tab
 * keys. macOS drops synthetic events from a program without the Accessibility permission, so
 * AXIsProcessTrusted is asked first and a refusal says where to grant it. Only type-checked on
 * the Linux build machines: it has not run on macOS here.
 */
import koffi from 'koffi';
import { TypingError, type TextTyper } from '../services/dictation/typing-port.js';
import { chunkText, normaliseTypedText } from './text-runs.js';

/** One step: a Unicode string on a key event, or a named key (virtual key code) with modifier flags. */
export type MacStroke = { kind: 'unicode'; units: number[] } | { kind: 'key'; keyCode: number; flags: number };

export const KVK_RETURN = 36;
export const KVK_TAB = 48;
const KVK_ANSI_V = 9;
const COMMAND_FLAG = 0x100000; // kCGEventFlagMaskCommand
/** CGEventKeyboardSetUnicodeString's documented limit per event. */
const MAX_UNITS = 20;

/** The steps that type `text`. */
export function cgEventPlan(text: string): MacStroke[] {
  const out: MacStroke[] = [];
  for (const line of normaliseTypedText(text).split(/(\n|\t)/)) {
    if (line === '\n') out.push({ kind: 'key', keyCode: KVK_RETURN, flags: 0 });
    else if (line === '\t') out.push({ kind: 'key', keyCode: KVK_TAB, flags: 0 });
    else for (const piece of chunkText(line, MAX_UNITS)) out.push({ kind: 'unicode', units: Array.from({ length: piece.length }, (_, i) => piece.charCodeAt(i)) });
  }
  return out;
}

/** Command+V, the paste keystroke of the clipboard fallback. */
export const PASTE_STROKE: MacStroke = { kind: 'key', keyCode: KVK_ANSI_V, flags: COMMAND_FLAG };

interface Quartz {
  trusted(): boolean;
  post(stroke: MacStroke): void;
}
let bound: Quartz | undefined;

function bindQuartz(): Quartz {
  if (bound) return bound;
  const cg = koffi.load('/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics');
  const cf = koffi.load('/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation');
  const ax = koffi.load('/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices');
  const create = cg.func('void *CGEventCreateKeyboardEvent(void *source, uint16_t virtualKey, bool keyDown)');
  const setUnicode = cg.func('void CGEventKeyboardSetUnicodeString(void *event, unsigned long length, const uint16_t *string)');
  const setFlags = cg.func('void CGEventSetFlags(void *event, uint64_t flags)');
  const post = cg.func('void CGEventPost(uint32_t tap, void *event)');
  const release = cf.func('void CFRelease(void *cf)');
  const isTrusted = ax.func('bool AXIsProcessTrusted()');
  const HID_TAP = 0; // kCGHIDEventTap: as if from the keyboard, to the focused application
  const send = (keyCode: number, down: boolean, stroke: MacStroke): void => {
    const event = create(null, keyCode, down);
    if (!event) throw new TypingError('failed', 'macOS could not create a keyboard event');
    try {
      if (stroke.kind === 'unicode') setUnicode(event, stroke.units.length, Uint16Array.from(stroke.units));
      else if (stroke.flags) setFlags(event, stroke.flags);
      post(HID_TAP, event);
    } finally {
      release(event);
    }
  };
  bound = {
    trusted: () => Boolean(isTrusted()),
    post(stroke) {
      const keyCode = stroke.kind === 'key' ? stroke.keyCode : 0;
      send(keyCode, true, stroke);
      send(keyCode, false, stroke);
    },
  };
  return bound;
}

const ACCESSIBILITY =
  'macOS needs to allow Clindoc to control the computer: System Settings > Privacy & Security > Accessibility, turn Clindoc on, then start dictation again';

/** Posts strokes after checking the Accessibility permission. */
export function postStrokes(strokes: MacStroke[]): void {
  const q = bindQuartz();
  if (!q.trusted()) throw new TypingError('refused', ACCESSIBILITY);
  for (const s of strokes) q.post(s);
}

/** Loads the frameworks now, so the choice of adapter fails early. */
export function probeCgEvent(): void {
  try {
    bindQuartz();
  } catch (err) {
    throw new TypingError('unavailable', `Quartz event services could not be loaded: ${(err as Error).message}`, { cause: err });
  }
}

/** The macOS typer. */
export function createCgEventTyper(): TextTyper {
  return {
    name: 'cgevent',
    type: async (text) => postStrokes(cgEventPlan(text)),
  };
}
