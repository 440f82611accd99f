/**
 * The typing module against a real X text window: a private Xvfb server, an xterm with the
 * keyboard focus, and the adapters of main/typing typing into it. What the window received is
 * compared with what was meant, character for character. Skips with a message only when the X
 * tools are missing or Xvfb cannot start (scripts/setup-system.sh installs them).
 */
import { describe, it, expect, afterAll, afterEach } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chooseTextTyper } from '../../main/typing/choose-typer.js';
import { createXdotoolTyper } from '../../main/typing/xdotool-typer.js';
import { createXclipPaster } from '../../main/typing/x11-clipboard.js';
import { runTool } from '../../main/typing/run-tool.js';
import { createDictateAnywhere } from '../../main/services/dictation/dictate-anywhere.js';
import type { TextTyper } from '../../main/services/dictation/typing-port.js';
import { missingTools, openTextWindow, startXvfb, until, type TextWindow, type XSession } from './x-session.js';

const missing = missingTools();
let x: XSession | undefined;
let reason = missing;
if (!missing) {
  try {
    x = await startXvfb();
  } catch (err) {
    reason = `Xvfb could not start: ${(err as Error).message}`;
  }
}
if (reason) console.warn(`[x11 typing] skipped: ${reason}`);

afterAll(async () => x?.close());

/** Clinical text on every keyboard map: punctuation, digits, a blood pressure, a tab and newlines. */
const ASCII_NOTE =
  'BP 120/80 mmHg, HR 72 bpm; SpO2 98% (room air). Plan: recheck in 2 weeks [#3] @clinic & call 555-0100 ~ "yes" \'no\' a|b \\ ^ `x` _y_ +z = <5> {ok}!?\nSecond line\tafter a tab.\n';
/** Characters outside a US keyboard map, mixed with typed text. */
const UNICODE_NOTE = 'Température 38.5 °C, dose 5 µg/kg → naïve café; BP 120/80 mmHg.\nDone: Ø ü ß ½ – “quoted”.\n';

/** Puts text on the CLIPBOARD the way a user's copy would (xclip keeps serving it in the background). */
function copyToClipboard(env: NodeJS.ProcessEnv, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('xclip', ['-selection', 'clipboard', '-i'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.once('error', reject);
    child.once('exit', () => resolve());
    child.stdin!.end(text);
  });
}

const clipboardText = async (env: NodeJS.ProcessEnv): Promise<string> => (await runTool('xclip', ['-selection', 'clipboard', '-o'], { env, timeoutMs: 5000 })).stdout;

describe.skipIf(Boolean(reason))('typing into a real X window (Xvfb)', () => {
  let win: TextWindow | undefined;
  afterEach(async () => {
    await win?.close();
    win = undefined;
  });

  it('xdotool types clinical text exactly: punctuation, digits, 120/80 mmHg, tab and newlines', async () => {
    win = await openTextWindow(x!);
    await createXdotoolTyper({ xdotool: 'xdotool', env: x!.env }).type(ASCII_NOTE);
    expect(await win.waitFor(ASCII_NOTE)).toBe(ASCII_NOTE);
  });

  it('types é, °, µ and other characters outside the keyboard map through the clipboard, in order, and gives the clipboard back', async () => {
    win = await openTextWindow(x!);
    await copyToClipboard(x!.env, "the physician's own copy");
    const paster = createXclipPaster({ xclip: 'xclip', xdotool: 'xdotool', env: x!.env });
    await createXdotoolTyper({ xdotool: 'xdotool', env: x!.env, paster }).type(UNICODE_NOTE);
    expect(await win.waitFor(UNICODE_NOTE)).toBe(UNICODE_NOTE);
    expect(await clipboardText(x!.env)).toBe("the physician's own copy");
    // Thirteen clipboard round trips (read, hold, paste, serve, restore each): about 1.5 s on a quiet
    // machine, over 30 s once seen on a loaded one; the bound is for a hang, not for speed.
  }, 120_000);

  it('chooses xdotool on this display and types shell metacharacters literally, running nothing', async () => {
    const choice = await chooseTextTyper({ platform: 'linux', env: x!.env });
    expect(choice.ok).toBe(true);
    const typer = (choice as { typer: TextTyper }).typer;
    expect(typer.name).toMatch(/^xdotool/);
    const marker = (n: number): string => join(x!.dir, `injected-${n}`);
    const text = `$(touch ${marker(1)}) ; touch ${marker(2)} && echo "quoted" 'single' \`touch ${marker(3)}\` | cat > /dev/null\n-- --help -v\n`;
    win = await openTextWindow(x!);
    await typer.type(text);
    expect(await win.waitFor(text)).toBe(text);
    expect([1, 2, 3].filter((n) => existsSync(marker(n)))).toEqual([]);
  });

  it('CLINDOC_TYPING=clipboard pastes the whole text, newlines and accents included', async () => {
    const choice = await chooseTextTyper({ platform: 'linux', env: x!.env, preference: 'clipboard' });
    expect(choice).toMatchObject({ ok: true, typer: { name: 'clipboard (xclip)' } });
    const text = 'Assessment: viral pharyngitis, 38.5 °C.\nPlan: paracetamol 1 g, rest.\n';
    win = await openTextWindow(x!);
    await (choice as { typer: TextTyper }).typer.type(text);
    expect(await win.waitFor(text)).toBe(text);
  });

  it('reports a paste the focused application did not take, instead of losing it silently', async () => {
    win = await openTextWindow(x!, { ctrlVPastes: false });
    const paster = createXclipPaster({ xclip: 'xclip', xdotool: 'xdotool', env: x!.env, requestTimeoutMs: 1500 });
    await expect(paster.paste('µg')).rejects.toMatchObject({ kind: 'failed', message: expect.stringMatching(/did not take the pasted text/) });
  });

  it('dictate anywhere: finals reach the cursor of the focused window in order while the bar shows partials', async () => {
    const choice = await chooseTextTyper({ platform: 'linux', env: x!.env });
    const views: string[] = [];
    const d = createDictateAnywhere({
      typer: (choice as { typer: TextTyper }).typer,
      bar: { show: () => undefined, hide: () => undefined, startCapture: () => undefined, stopCapture: () => undefined, render: (v) => void views.push(v.partial), copy: () => undefined },
    });
    win = await openTextWindow(x!);
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'capture-started' });
    d.dispatch({ type: 'partial', text: 'blood pressure' });
    d.dispatch({ type: 'final', text: 'Blood pressure 120/80 mmHg' });
    d.dispatch({ type: 'final', text: ', pulse 72.' });
    d.dispatch({ type: 'final', text: 'Temperature 37.2 °C.' });
    d.dispatch({ type: 'final', text: '\n' });
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'final', text: 'Plan: recheck in 2 weeks.' });
    d.dispatch({ type: 'capture-stopped' });
    const expected = 'Blood pressure 120/80 mmHg, pulse 72. Temperature 37.2 °C.\nPlan: recheck in 2 weeks.';
    expect(await win.waitFor(expected)).toBe(expected);
    await until(() => d.state().phase === 'idle', 10_000, 'the last final to be typed');
    expect(views).toContain('blood pressure');
  });
});

describe('choosing an adapter says why when none works', () => {
  it('names what is missing: display, xdotool, a reachable X server, an X11 session, a known setting', async () => {
    const base = { platform: 'linux' as const };
    expect(await chooseTextTyper({ ...base, env: { PATH: process.env.PATH } })).toEqual({ ok: false, reason: 'no X display (DISPLAY is not set), so there is no application to type into' });
    expect(await chooseTextTyper({ ...base, env: { DISPLAY: ':0', PATH: '/nonexistent' } })).toEqual({ ok: false, reason: 'xdotool is not installed (Debian/Ubuntu: sudo apt install xdotool xclip)' });
    expect(await chooseTextTyper({ ...base, env: { WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland', PATH: process.env.PATH } })).toMatchObject({ ok: false, reason: expect.stringMatching(/^this is a Wayland session/) });
    expect(await chooseTextTyper({ ...base, env: {}, preference: 'keyboard' })).toEqual({ ok: false, reason: 'CLINDOC_TYPING must be one of auto, xdotool, sendinput, cgevent, clipboard' });
    expect(await chooseTextTyper({ ...base, env: {}, preference: 'sendinput' })).toMatchObject({ ok: false, reason: expect.stringMatching(/not available on this system/) });
    expect(await chooseTextTyper({ platform: 'aix', env: {} })).toEqual({ ok: false, reason: 'typing into other applications is not supported on aix' });
  });

  it.skipIf(Boolean(missing))('says when the X display named cannot be reached', async () => {
    const choice = await chooseTextTyper({ platform: 'linux', env: { PATH: process.env.PATH, DISPLAY: ':4095' } });
    expect(choice).toMatchObject({ ok: false, reason: expect.stringMatching(/^xdotool cannot reach the X display :4095: /) });
  });
});
