/**
 * Typing on Windows through user32's SendInput, bound with koffi (no native build). Each UTF-16
 * unit is sent as a KEYEVENTF_UNICODE key (the system turns it into the character whatever the
 * keyboard layout, é and µ included); newline and tab are sent as the Return and Tab keys, which
 * applications expect rather than a character. Only type-checked on the Linux build machines:
 * it has not run on Windows here.
 */
import koffi from 'koffi';
import { TypingError, type TextTyper } from '../services/dictation/typing-port.js';
import { normaliseTypedText } from './text-runs.js';

/** One keyboard event as SendInput's KEYBDINPUT takes it. */
export interface WinKey {
  vk: number;
  scan: number;
  flags: number;
}

export const KEYEVENTF_KEYUP = 0x0002;
export const KEYEVENTF_UNICODE = 0x0004;
const VK_TAB = 0x09;
const VK_RETURN = 0x0d;
const VK_CONTROL = 0x11;
const VK_V = 0x56;

const press = (vk: number): WinKey[] => [
  { vk, scan: 0, flags: 0 },
  { vk, scan: 0, flags: KEYEVENTF_KEYUP },
];

/** The key events that type `text`: a down and up per UTF-16 unit, Return for newline, Tab for tab. */
export function sendInputPlan(text: string): WinKey[] {
  const keys: WinKey[] = [];
  const normal = normaliseTypedText(text);
  for (let i = 0; i < normal.length; i++) {
    const unit = normal.charCodeAt(i);
    if (unit === 0x0a) keys.push(...press(VK_RETURN));
    else if (unit === 0x09) keys.push(...press(VK_TAB));
    else keys.push({ vk: 0, scan: unit, flags: KEYEVENTF_UNICODE }, { vk: 0, scan: unit, flags: KEYEVENTF_UNICODE | KEYEVENTF_KEYUP });
  }
  return keys;
}

/** Ctrl+V, the paste keystroke of the clipboard fallback. */
export const PASTE_PLAN: WinKey[] = [
  { vk: VK_CONTROL, scan: 0, flags: 0 },
  ...press(VK_V),
  { vk: VK_CONTROL, scan: 0, flags: KEYEVENTF_KEYUP },
];

type SendKeys = (keys: WinKey[]) => number;
let bound: SendKeys | undefined;

/** Binds SendInput once (koffi type names are global, so a second declaration would clash). */
function bindSendInput(): SendKeys {
  if (bound) return bound;
  const user32 = koffi.load('user32.dll');
  const MOUSEINPUT = koffi.struct('ClindocMouseInput', { dx: 'long', dy: 'long', mouseData: 'uint32_t', dwFlags: 'uint32_t', time: 'uint32_t', dwExtraInfo: 'uintptr_t' });
  const KEYBDINPUT = koffi.struct('ClindocKeybdInput', { wVk: 'uint16_t', wScan: 'uint16_t', dwFlags: 'uint32_t', time: 'uint32_t', dwExtraInfo: 'uintptr_t' });
  const HARDWAREINPUT = koffi.struct('ClindocHardwareInput', { uMsg: 'uint32_t', wParamL: 'uint16_t', wParamH: 'uint16_t' });
  // The union makes INPUT as large as its largest member (MOUSEINPUT), as cbSize must say.
  const INPUT = koffi.struct('ClindocInput', { type: 'uint32_t', u: koffi.union({ mi: MOUSEINPUT, ki: KEYBDINPUT, hi: HARDWAREINPUT }) });
  const SendInput = user32.func('__stdcall', 'SendInput', 'uint32_t', ['uint32_t', koffi.pointer(INPUT), 'int']);
  const INPUT_KEYBOARD = 1;
  const size = koffi.sizeof(INPUT);
  bound = (keys) => {
    const events = keys.map((k) => ({ type: INPUT_KEYBOARD, u: { ki: { wVk: k.vk, wScan: k.scan, dwFlags: k.flags, time: 0, dwExtraInfo: 0 } } }));
    return SendInput(events.length, events, size) as number;
  };
  return bound;
}

/** Sends key events in batches; a short count means Windows blocked them (UIPI: the target runs elevated). */
export function sendKeys(keys: WinKey[], send: SendKeys = bindSendInput()): void {
  const BATCH = 200;
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    if (send(batch) !== batch.length) {
      throw new TypingError('refused', 'Windows blocked the keystrokes (the application may run as administrator, which a normal program may not type into)');
    }
  }
}

/** Loads user32 now, so the choice of adapter fails early rather than at the first final. */
export function probeSendInput(): void {
  try {
    bindSendInput();
  } catch (err) {
    throw new TypingError('unavailable', `SendInput could not be loaded: ${(err as Error).message}`, { cause: err });
  }
}

/** The Windows typer. */
export function createSendInputTyper(): TextTyper {
  return {
    name: 'sendinput',
    type: async (text) => sendKeys(sendInputPlan(text)),
  };
}
