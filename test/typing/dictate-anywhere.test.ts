/**
 * The decision logic of "dictate anywhere" (main/services/dictation/dictate-anywhere.ts): what the
 * shortcut does, where finals go and in what order, what the bar shows, and that no dictated
 * text is lost when typing fails. The typer here is a hand-held one whose typing finishes when
 * the test says, so order and waiting can be checked; the real adapters are tested under Xvfb
 * in x11-typing.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { createDictateAnywhere, joinFinal, type DictationBarPort } from '../../main/services/dictation/dictate-anywhere.js';
import { parseBarEvent } from '../../main/services/dictation/bar-events.js';
import { TypingError, type TextTyper } from '../../main/services/dictation/typing-port.js';
import type { BarView } from '../../shared/dictation-bar-bridge.js';

/** A typer whose calls wait until the test finishes or fails them, one by one. */
function heldTyper(): TextTyper & { calls: string[]; finish(): Promise<void>; fail(message: string): Promise<void> } {
  const pending: { resolve(): void; reject(e: Error): void }[] = [];
  const calls: string[] = [];
  const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
  return {
    name: 'test keyboard',
    calls,
    type(text) {
      calls.push(text);
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
    async finish() {
      pending.shift()!.resolve();
      await flush();
    },
    async fail(message) {
      pending.shift()!.reject(new TypingError('failed', message));
      await flush();
    },
  };
}

function recordingBar(): DictationBarPort & { log: string[]; view(): BarView; visible: boolean; copied: string[] } {
  let last: BarView | undefined;
  const bar = {
    log: [] as string[],
    copied: [] as string[],
    visible: false,
    view: () => last!,
    show: () => ((bar.visible = true), bar.log.push('show')),
    hide: () => ((bar.visible = false), bar.log.push('hide')),
    startCapture: () => void bar.log.push('start'),
    stopCapture: () => void bar.log.push('stop'),
    render: (v: BarView) => void (last = v),
    copy: (text: string) => void bar.copied.push(text),
  };
  return bar;
}

describe('dictate anywhere: the shortcut, the bar and where finals go', () => {
  it('starts listening on the shortcut, shows partials, and types finals in order with one space between them', async () => {
    const typer = heldTyper();
    const bar = recordingBar();
    const d = createDictateAnywhere({ typer, bar });
    d.dispatch({ type: 'shortcut' });
    expect(bar.log).toEqual(['show', 'start']);
    expect(bar.view()).toMatchObject({ status: 'starting', target: 'Typing at the cursor (test keyboard)' });
    d.dispatch({ type: 'capture-started' });
    d.dispatch({ type: 'partial', text: 'blood pressure one' });
    expect(bar.view()).toMatchObject({ status: 'listening', partial: 'blood pressure one' });

    d.dispatch({ type: 'final', text: 'Blood pressure 120/80 mmHg' });
    expect(bar.view().partial).toBe('');
    d.dispatch({ type: 'final', text: ', pulse 72.' });
    d.dispatch({ type: 'final', text: 'Temperature 37.2 °C.' });
    // One at a time: the second final waits until the first is typed.
    expect(typer.calls).toEqual(['Blood pressure 120/80 mmHg']);
    await typer.finish();
    expect(typer.calls).toEqual(['Blood pressure 120/80 mmHg', ', pulse 72.']);
    await typer.finish();
    await typer.finish();
    expect(typer.calls.join('')).toBe('Blood pressure 120/80 mmHg, pulse 72. Temperature 37.2 °C.');
    expect(bar.visible).toBe(true); // still listening
  });

  it('on stop, types the last finals before the bar hides', async () => {
    const typer = heldTyper();
    const bar = recordingBar();
    const d = createDictateAnywhere({ typer, bar });
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'capture-started' });
    d.dispatch({ type: 'shortcut' });
    expect(bar.log).toEqual(['show', 'start', 'stop']);
    expect(bar.view().status).toBe('stopping');
    d.dispatch({ type: 'final', text: 'Plan: recheck in 2 weeks.' }); // the recogniser's last words arrive after stop
    d.dispatch({ type: 'capture-stopped' });
    expect(bar.visible).toBe(true);
    expect(d.state().phase).toBe('stopping');
    await typer.finish();
    expect(typer.calls).toEqual(['Plan: recheck in 2 weeks.']);
    expect(d.state().phase).toBe('idle');
    expect(bar.visible).toBe(false);
    // The next session's first final has no space before it: the text at the cursor is unknown.
    d.dispatch({ type: 'toggle' });
    d.dispatch({ type: 'final', text: 'Second visit.' });
    expect(typer.calls.at(-1)).toBe('Second visit.');
  });

  it('keeps the text and says why when typing fails, and stops listening', async () => {
    const typer = heldTyper();
    const bar = recordingBar();
    const d = createDictateAnywhere({ typer, bar });
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'capture-started' });
    d.dispatch({ type: 'final', text: 'First sentence.' });
    d.dispatch({ type: 'final', text: 'Second sentence.' });
    await typer.fail('the focused application did not take the pasted text');
    expect(bar.log.at(-1)).toBe('stop');
    d.dispatch({ type: 'final', text: 'Third sentence.' });
    d.dispatch({ type: 'capture-stopped' });
    expect(typer.calls).toEqual(['First sentence.']); // nothing more is typed after a failure
    expect(bar.view().held).toBe('First sentence. Second sentence. Third sentence.');
    expect(bar.view().message).toEqual({ kind: 'error', text: 'Could not type into the application: the focused application did not take the pasted text. The text is kept here to copy.' });
    expect(bar.visible).toBe(true);
    d.dispatch({ type: 'copy-held' });
    expect(bar.copied).toEqual(['First sentence. Second sentence. Third sentence.']);
    expect(bar.view().message).toEqual({ kind: 'info', text: 'The kept text is on the clipboard: paste it where it belongs.' });
    // A new session does not throw the kept text away; closing the message does.
    d.dispatch({ type: 'shortcut' });
    expect(bar.view().held).toBe('First sentence. Second sentence. Third sentence.');
    expect(bar.view().message).toBeUndefined();
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'capture-stopped' });
    d.dispatch({ type: 'dismiss' });
    expect(bar.view().held).toBe('');
    expect(bar.visible).toBe(false);
  });

  it('opens the bar with the reason instead of listening when no adapter works here', () => {
    const bar = recordingBar();
    const d = createDictateAnywhere({ typer: { problem: 'xdotool is not installed (Debian/Ubuntu: sudo apt install xdotool xclip)' }, bar });
    d.dispatch({ type: 'shortcut' });
    expect(bar.log).toEqual(['show']);
    expect(bar.view()).toMatchObject({
      status: 'idle',
      target: 'Typing unavailable',
      message: { kind: 'error', text: 'Dictation cannot type into other applications: xdotool is not installed (Debian/Ubuntu: sudo apt install xdotool xclip).' },
    });
    d.dispatch({ type: 'dismiss' });
    expect(bar.visible).toBe(false);
  });

  it('shows a microphone failure and goes back to idle', () => {
    const bar = recordingBar();
    const d = createDictateAnywhere({ typer: heldTyper(), bar });
    d.dispatch({ type: 'shortcut' });
    d.dispatch({ type: 'capture-failed', message: 'Microphone access was refused.' });
    expect(d.state().phase).toBe('idle');
    expect(bar.view().message).toEqual({ kind: 'error', text: 'Microphone access was refused.' });
    d.dispatch({ type: 'final', text: 'late words' });
    expect(d.state().queue).toEqual([]);
  });

  it('joins finals with one space, none before punctuation or after a line end', () => {
    expect(joinFinal('', 'Hello.')).toBe('Hello.');
    expect(joinFinal('.', 'Next')).toBe(' Next');
    expect(joinFinal('g', ', pulse')).toBe(', pulse');
    expect(joinFinal('\n', 'Plan')).toBe('Plan');
    expect(joinFinal('.', '\nPlan')).toBe('\nPlan');
  });
});

describe('events from the bar window', () => {
  it('accepts only known events with bounded text, never the typer’s answers', () => {
    expect(parseBarEvent({ type: 'final', text: 'BP 120/80' })).toEqual({ type: 'final', text: 'BP 120/80' });
    expect(parseBarEvent({ type: 'toggle', extra: 1 })).toEqual({ type: 'toggle' });
    expect(parseBarEvent({ type: 'typed' })).toBeUndefined();
    expect(parseBarEvent({ type: 'typing-failed', message: 'x' })).toBeUndefined();
    expect(parseBarEvent({ type: 'shortcut' })).toBeUndefined();
    expect(parseBarEvent({ type: 'final', text: 42 })).toBeUndefined();
    expect(parseBarEvent({ type: 'final', text: 'a'.repeat(20_001) })).toBeUndefined();
    expect(parseBarEvent('final')).toBeUndefined();
    expect(parseBarEvent(null)).toBeUndefined();
    expect(parseBarEvent({ type: 'capture-failed', message: 'm'.repeat(900) })).toEqual({ type: 'capture-failed', message: 'm'.repeat(500) });
  });
});
