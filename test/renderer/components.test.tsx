// @vitest-environment happy-dom
import { describe, it, expect, afterEach } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MarkdownView } from '../../renderer/components/markdown-view.js';
import { DictationPage } from '../../renderer/pages/dictation-page.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';

afterEach(cleanup);

class MemoryStorage {
  private map = new Map<string, string>();
  getItem = (k: string): string | null => this.map.get(k) ?? null;
  setItem = (k: string, v: string): void => void this.map.set(k, v);
  removeItem = (k: string): void => void this.map.delete(k);
}

function stores(): AppStores {
  const s = new MemoryStorage();
  return createAppStores({
    bridge: undefined,
    connectionEnv: { hash: '', session: s, local: s, clearHash: () => undefined },
    local: s,
    dictation: { listMicrophones: async () => [{ deviceId: 'mic-2', label: 'USB headset' }] },
  });
}

describe('note view', () => {
  it('shows headings, lists and emphasis, and shows HTML in a note as text', () => {
    render(<MarkdownView label="Generated note" markdown={'## Plan\n- **Rest**\n- <b onclick="x">fluids</b>'} />);
    const note = screen.getByRole('article', { name: 'Generated note' });
    expect(screen.getByRole('heading', { name: 'Plan' }).tagName).toBe('H4');
    expect(note.querySelector('strong')?.textContent).toBe('Rest');
    expect(note.querySelector('b')).toBeNull();
    expect(note.textContent).toContain('<b onclick="x">fluids</b>');
  });
});

describe('dictation page', () => {
  it('marks an expanded macro distinctly and undoes it from the keyboard-reachable button', async () => {
    const app = stores();
    app.dictation.setState({
      segments: [{ id: 1, pending: false, pieces: [
        { kind: 'text', id: 2, text: 'Normal ' },
        { kind: 'macro', id: 3, macroId: 'exam', original: 'physical exam', expansion: 'Physical exam: lungs clear.', undone: false, confidence: 0.9 },
      ] }],
      partial: 'and the patient',
    });
    await act(async () => {
      render(<StoresProvider stores={app}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    expect(screen.getByTestId('partial-text').textContent).toBe('and the patient');
    expect(screen.getByText('Physical exam: lungs clear.').tagName).toBe('MARK');
    fireEvent.click(screen.getByRole('button', { name: 'Undo expansion of macro exam' }));
    expect(screen.getByText('physical exam').tagName).toBe('MARK');
    expect(screen.queryByText('Physical exam: lungs clear.')).toBeNull();
    expect(app.dictation.getState().text()).toBe('Normal physical exam');
  });

  it('cannot start without a connection and says where to connect', async () => {
    await act(async () => {
      render(<StoresProvider stores={stores()}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    expect((screen.getByRole('button', { name: 'Start dictation' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toMatch(/Settings/);
    expect(screen.getByLabelText('Microphone')).toBeTruthy();
    expect(screen.getByLabelText('Microphone level')).toBeTruthy();
  });
});
