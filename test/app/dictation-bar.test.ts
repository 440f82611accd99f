/**
 * The dictation bar's window and shortcut settings (main/app/dictation-bar-window.ts), checked
 * without Electron: the same renderer security as the main window, on top, never taking the focus
 * from the application being dictated into, placed where it hides little.
 */
import { describe, it, expect } from 'vitest';
import { barBounds, barHeight, DEFAULT_DICTATE_SHORTCUT, dictateShortcut, dictationBarOptions } from '../../main/app/dictation-bar-window.js';
import { windowOptions } from '../../main/app/window-options.js';

const WORK_AREA = { x: 0, y: 27, width: 1920, height: 1053 };

describe('the dictation bar window', () => {
  it('keeps the main window’s renderer security: isolated, sandboxed, no Node, its own preload', () => {
    const bar = dictationBarOptions('/app/preload/dictation-bar.cjs', WORK_AREA).webPreferences!;
    const { preload: _main, spellcheck: _s, ...mainSecurity } = windowOptions('/app/preload/index.cjs').webPreferences!;
    expect(bar).toMatchObject({ ...mainSecurity, preload: '/app/preload/dictation-bar.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('floats frameless on top without ever taking the keyboard focus, out of the taskbar', () => {
    expect(dictationBarOptions('/p.cjs', WORK_AREA)).toMatchObject({ alwaysOnTop: true, focusable: false, frame: false, skipTaskbar: true, show: false, resizable: false });
  });

  it('sits at the top centre of the work area and grows to show kept text', () => {
    expect(barBounds(WORK_AREA)).toEqual({ x: 680, y: 39, width: 560, height: 78 });
    expect(barBounds({ x: 1920, y: 0, width: 400, height: 800 })).toEqual({ x: 1920, y: 12, width: 400, height: 78 });
    expect(barHeight({ held: 'Blood pressure 120/80.', message: { kind: 'error', text: 'x' } })).toBeGreaterThan(barHeight({ held: '', message: { kind: 'error', text: 'x' } }));
    expect(barHeight({ held: '' })).toBe(78);
  });
});

describe('the dictate-anywhere shortcut', () => {
  it('is Ctrl/Cmd+Shift+D unless CLINDOC_DICTATE_SHORTCUT names another, and can be turned off', () => {
    expect(DEFAULT_DICTATE_SHORTCUT).toBe('CommandOrControl+Shift+D');
    expect(dictateShortcut({})).toBe('CommandOrControl+Shift+D');
    expect(dictateShortcut({ CLINDOC_DICTATE_SHORTCUT: ' F9 ' })).toBe('F9');
    expect(dictateShortcut({ CLINDOC_DICTATE_SHORTCUT: '' })).toBe('CommandOrControl+Shift+D');
    expect(dictateShortcut({ CLINDOC_DICTATE_SHORTCUT: 'off' })).toBeUndefined();
  });
});
