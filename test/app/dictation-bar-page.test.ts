// @vitest-environment happy-dom
/**
 * The dictation bar page (renderer/dictation-bar.html + .ts) with a recording bridge in place of
 * Electron's preload: it draws what main sends (partials, where text goes, messages, kept text)
 * as text, and its buttons report the user's clicks to main.
 */
import { describe, it, expect, beforeAll, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BarCommand, BarEvent, DictationBarBridge } from '../../shared/dictation-bar-bridge.js';

const ROOT = join(import.meta.dirname, '..', '..');
const reported: BarEvent[] = [];
let command: ((c: BarCommand) => void) | undefined;

beforeAll(async () => {
  const html = readFileSync(join(ROOT, 'renderer', 'dictation-bar.html'), 'utf8');
  document.body.innerHTML = /<body>([\s\S]*)<script/.exec(html)![1]!;
  const bridge: DictationBarBridge = {
    connection: async () => ({ baseUrl: 'http://127.0.0.1:1', accountId: null, apiKey: null }),
    onCommand: (listener) => ((command = listener), () => undefined),
    report: (event) => void reported.push(event),
  };
  (window as unknown as { clindocBar: DictationBarBridge }).clindocBar = bridge;
  await import('../../renderer/dictation-bar.js');
});

const text = (id: string): string => document.getElementById(id)!.textContent ?? '';
const hidden = (id: string): boolean => (document.getElementById(id) as HTMLElement).hidden === true;

describe('the dictation bar page', () => {
  it('shows the words being recognised and where the text goes, as text', () => {
    command!({ type: 'view', view: { status: 'listening', partial: 'blood pressure <b>one</b>', target: 'Typing at the cursor (xdotool)', held: '' } });
    expect(text('status')).toBe('Listening');
    expect(text('partial')).toBe('blood pressure <b>one</b>');
    expect(document.querySelector('#partial b')).toBeNull();
    expect(text('target')).toBe('Typing at the cursor (xdotool)');
    expect(text('toggle')).toBe('Stop');
    expect(hidden('message')).toBe(true);
    expect(hidden('held')).toBe(true);
  });

  it('shows a failure with the kept text, and reports Copy, Close and Stop/Start to main', () => {
    command!({
      type: 'view',
      view: { status: 'idle', partial: '', target: 'Typing at the cursor (xdotool)', held: 'Temperature 37.2 °C.', message: { kind: 'error', text: 'Could not type into the application.' } },
    });
    expect(text('message')).toBe('Could not type into the application.');
    expect(hidden('held')).toBe(false);
    expect((document.getElementById('held-text') as HTMLTextAreaElement).value).toBe('Temperature 37.2 °C.');
    expect(text('toggle')).toBe('Start');
    for (const id of ['copy', 'dismiss', 'toggle']) (document.getElementById(id) as HTMLButtonElement).click();
    expect(reported).toEqual([{ type: 'copy-held' }, { type: 'dismiss' }, { type: 'toggle' }]);
  });

  it('reports a start it cannot honour without credentials instead of opening the microphone', async () => {
    reported.length = 0;
    command!({ type: 'start' });
    await vi.waitFor(() => expect(reported).toEqual([{ type: 'capture-failed', message: 'Clindoc has no credentials for its local API yet: open the app once and connect.' }]));
  });
});
