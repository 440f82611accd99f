/**
 * What the Windows and macOS adapters would send, checked as data on any machine (their native
 * calls, SendInput and CGEventPost, can only run on those systems), and the text preparation every
 * adapter shares.
 */
import { describe, it, expect } from 'vitest';
import { KEYEVENTF_KEYUP, KEYEVENTF_UNICODE, PASTE_PLAN, sendInputPlan, sendKeys, type WinKey } from '../../main/typing/windows-sendinput.js';
import { cgEventPlan, KVK_RETURN, KVK_TAB, PASTE_STROKE } from '../../main/typing/macos-cgevent.js';
import { chunkText, mergeShortRuns, normaliseTypedText, splitKeymapRuns } from '../../main/typing/text-runs.js';

const units = (s: string): number[] => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

describe('Windows SendInput plan', () => {
  it('sends each character as a Unicode key, whatever the layout, and newline/tab as Return/Tab', () => {
    const plan = sendInputPlan('é°\r\nµ\t');
    const down = (u: number): WinKey => ({ vk: 0, scan: u, flags: KEYEVENTF_UNICODE });
    const up = (u: number): WinKey => ({ vk: 0, scan: u, flags: KEYEVENTF_UNICODE | KEYEVENTF_KEYUP });
    expect(plan).toEqual([
      down(0xe9), up(0xe9), down(0xb0), up(0xb0),
      { vk: 0x0d, scan: 0, flags: 0 }, { vk: 0x0d, scan: 0, flags: KEYEVENTF_KEYUP },
      down(0xb5), up(0xb5),
      { vk: 0x09, scan: 0, flags: 0 }, { vk: 0x09, scan: 0, flags: KEYEVENTF_KEYUP },
    ]);
  });

  it('sends a character beyond the BMP as its two UTF-16 units, and Ctrl+V to paste', () => {
    expect(sendInputPlan('🩺').map((k) => k.scan)).toEqual([0xd83e, 0xd83e, 0xde7a, 0xde7a]);
    expect(PASTE_PLAN.map((k) => [k.vk, k.flags])).toEqual([[0x11, 0], [0x56, 0], [0x56, KEYEVENTF_KEYUP], [0x11, KEYEVENTF_KEYUP]]);
  });

  it('says Windows blocked the keystrokes when fewer were inserted than sent', () => {
    const sent: number[] = [];
    sendKeys(sendInputPlan('ok'), (keys) => (sent.push(keys.length), keys.length));
    expect(sent).toEqual([4]);
    expect(() => sendKeys(sendInputPlan('BP 120/80'), () => 0)).toThrow(expect.objectContaining({ kind: 'refused', message: expect.stringMatching(/administrator/) }));
  });
});

describe('macOS CGEvent plan', () => {
  it('carries text in Unicode events of at most 20 UTF-16 units, never splitting a character, with Return and Tab as keys', () => {
    const line = 'Temperature 37.2 °C, SpO2 98% on room air';
    const plan = cgEventPlan(`${line}\nPlan\t🩺`);
    const text = plan.filter((s) => s.kind === 'unicode').map((s) => String.fromCharCode(...(s as { units: number[] }).units));
    expect(text.join('')).toBe(`${line}Plan🩺`);
    expect(plan.every((s) => s.kind !== 'unicode' || s.units.length <= 20)).toBe(true);
    expect(plan.filter((s) => s.kind === 'key')).toEqual([{ kind: 'key', keyCode: KVK_RETURN, flags: 0 }, { kind: 'key', keyCode: KVK_TAB, flags: 0 }]);
    const at = (i: number): number[] => (plan[i] as { units: number[] }).units;
    expect(at(0)).toEqual(units(line.slice(0, 20)));
    expect(PASTE_STROKE).toEqual({ kind: 'key', keyCode: 9, flags: 0x100000 });
  });
});

describe('text preparation', () => {
  it('turns CRLF and CR into one newline and drops control characters that would act instead of write', () => {
    expect(normaliseTypedText('a\r\nb\rc\td\u001b[2Je\u0007')).toBe('a\nb\nc\td[2Je');
  });

  it('splits keyboard-map text from characters xdotool would have to remap', () => {
    expect(splitKeymapRuns('BP 120/80 mmHg, 37.2 °C, 5 µg\n')).toEqual([
      { text: 'BP 120/80 mmHg, 37.2 ', keymap: true },
      { text: '°', keymap: false },
      { text: 'C, 5 ', keymap: true },
      { text: 'µ', keymap: false },
      { text: 'g\n', keymap: true },
    ]);
  });

  it('pastes short typeable stretches between accents with them, one clipboard trip instead of many', () => {
    const runs = splitKeymapRuns('Température élevée à 38.5 °C, dose 5 µg\nfin é');
    expect(mergeShortRuns(runs)).toEqual([
      { text: 'Temp', keymap: true },
      { text: 'érature élevée à 38.5 °C, dose 5 µ', keymap: false },
      { text: 'g\nfin ', keymap: true }, // a newline stays a typed Return
      { text: 'é', keymap: false },
    ]);
    const long = splitKeymapRuns('é and then a long typed stretch é');
    expect(mergeShortRuns(long)).toEqual(long);
    expect(mergeShortRuns(runs).map((r) => r.text).join('')).toBe('Température élevée à 38.5 °C, dose 5 µg\nfin é');
  });

  it('cuts long text without breaking a surrogate pair', () => {
    expect(chunkText('ab🩺cd', 3)).toEqual(['ab', '🩺c', 'd']);
    expect(chunkText('', 5)).toEqual([]);
  });
});
