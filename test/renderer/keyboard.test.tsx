// @vitest-environment happy-dom
/**
 * Keyboard and screen readers in the app shell: "?" opens the shortcuts sheet except while
 * typing, Ctrl+Enter asks for the note (and a refusal is announced), after Stop the focus is on
 * the dictated text.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App } from '../../renderer/app.js';
import { typingIn } from '../../renderer/components/shortcuts-sheet.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { MemoryStorage } from '../support/memory-storage.js';

afterEach(cleanup);

function stores(): AppStores {
  const s = new MemoryStorage();
  return createAppStores({
    bridge: undefined,
    connectionEnv: { hash: '', session: s, local: s, clearHash: () => undefined },
    local: s,
    fetch: async () => new Response('{}', { status: 503 }),
    dictation: {
      listMicrophones: async () => [],
      startCapture: async () => ({ sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined }),
      createStream: (d) => ({ start: () => d.onState('open'), sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' }),
    },
  });
}

async function openApp(app = stores()): Promise<AppStores> {
  await act(async () => {
    render(<StoresProvider stores={app}><App /></StoresProvider>);
  });
  return app;
}

describe('keyboard', () => {
  it('"?" opens the shortcuts sheet, but is just a character in a text field', async () => {
    await openApp();
    const sheet = document.querySelector<HTMLDialogElement>('dialog[aria-labelledby="shortcuts-title"]')!;
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    fireEvent.keyDown(screen.getByLabelText('Transcript'), { key: '?' });
    expect(sheet.open).toBe(false);
    fireEvent.keyDown(document.body, { key: '?' });
    expect(sheet.open).toBe(true);
    expect(sheet.textContent).toContain('Ctrl+Enter');
  });

  it('tells a field being typed in from a control', () => {
    const text = document.createElement('textarea');
    const box = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const button = document.createElement('button');
    expect([typingIn(text), typingIn(box), typingIn(button), typingIn(null)]).toEqual([true, false, false, false]);
  });

  it('Ctrl+Enter on the Note page asks for the note and the reason it cannot be written is announced', async () => {
    await openApp();
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    });
    expect(screen.getByRole('alert').textContent).toMatch(/Connect to the local API/);
  });

  it('Ctrl+Enter on Dictation takes the dictated text to the Note page', async () => {
    const app = stores();
    app.dictation.getState().replaceText('Cough for two days. No fever.');
    await openApp(app);
    fireEvent.click(screen.getByRole('button', { name: 'Dictation' }));
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    });
    expect(screen.getByRole('button', { name: 'Note' }).getAttribute('aria-current')).toBe('page');
    expect((screen.getByLabelText('Transcript') as HTMLTextAreaElement).value).toBe('Cough for two days. No fever.');
  });

  it('after Stop the focus is on the dictated text', async () => {
    const app = stores();
    await openApp(app);
    fireEvent.click(screen.getByRole('button', { name: 'Dictation' }));
    app.dictation.setState({ status: 'listening' });
    await act(async () => {
      await app.dictation.getState().stop();
    });
    expect(document.activeElement).toBe(screen.getByLabelText('Dictated text'));
  });
});
