// @vitest-environment happy-dom
import { describe, it, expect, afterEach } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MarkdownView } from '../../renderer/components/markdown-view.js';
import { DictationPage } from '../../renderer/pages/dictation-page.js';
import { emptyDoc, insertUtterance } from '../../renderer/state/dictation-doc.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { MemoryStorage } from '../support/memory-storage.js';

afterEach(cleanup);

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
      doc: { ...emptyDoc(), nextId: 4, pieces: [
        { kind: 'text', id: 2, utterance: 1, text: 'Normal ' },
        { kind: 'macro', id: 3, utterance: 1, macroId: 'exam', original: 'physical exam', tail: '', expansion: 'Physical exam: lungs clear.', undone: false, confidence: 0.9 },
      ] },
      partial: 'and the patient',
      announcement: { count: 1, text: 'Normal physical exam.' },
    });
    await act(async () => {
      render(<StoresProvider stores={app}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    expect(screen.getByTestId('partial-text').textContent).toBe('and the patient');
    // The last final is said politely to a screen reader; the changing partial is not.
    const live = screen.getByTestId('final-announcement');
    expect([live.getAttribute('aria-live'), live.textContent]).toEqual(['polite', 'Dictated: Normal physical exam.']);
    expect(screen.getByTestId('partial-text').closest('[aria-live]')).toBeNull();
    expect(screen.getByText('Physical exam: lungs clear.').tagName).toBe('MARK');
    expect((screen.getByLabelText('Dictated text') as HTMLTextAreaElement).value).toBe('Normal Physical exam: lungs clear.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo expansion of macro exam' }));
    expect(screen.getByText('physical exam').tagName).toBe('MARK');
    expect(screen.queryByText('Physical exam: lungs clear.')).toBeNull();
    expect(app.dictation.getState().text()).toBe('Normal physical exam');
  });

  it('takes typing while finals keep arriving: the typed words and the new final are both kept, the macro mark too', async () => {
    const app = stores();
    app.dictation.setState({
      doc: { ...emptyDoc(), nextId: 4, pieces: [
        { kind: 'text', id: 2, utterance: 1, text: 'Cough for two days. ' },
        { kind: 'macro', id: 3, utterance: 1, macroId: 'exam', original: 'physical exam', tail: '', expansion: 'Lungs clear.', undone: false, confidence: 0.9 },
      ] },
    });
    await act(async () => {
      render(<StoresProvider stores={app}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    const box = screen.getByLabelText('Dictated text') as HTMLTextAreaElement;
    const typed = 'Cough for two dry days. Lungs clear.';
    const caret = 'Cough for two dry'.length;
    box.focus();
    box.setSelectionRange(caret, caret);
    fireEvent.change(box, { target: { value: typed, selectionStart: caret, selectionEnd: caret } });
    await act(async () => {
      const { doc } = insertUtterance(app.dictation.getState().doc, 'No fever', { mode: 'end', punctuate: true });
      app.dictation.setState({ doc });
    });
    expect(box.value).toBe('Cough for two dry days. Lungs clear. No fever.');
    expect(screen.getByText('Lungs clear.').tagName).toBe('MARK');
    expect(screen.getByTestId('expansions').textContent).toContain('exam');
  });

  it('marks unsure words and selects the next one from a button', async () => {
    const app = stores();
    app.dictation.setState({
      doc: insertUtterance(emptyDoc(), 'Start lisinopril ten mg', { mode: 'end', punctuate: true, words: [
        { word: 'start', punctuated_word: 'Start', start: 0, end: 0, confidence: 0.95 },
        { word: 'lisinopril', punctuated_word: 'lisinopril', start: 0, end: 0, confidence: 0.2 },
      ] }).doc,
    });
    await act(async () => {
      render(<StoresProvider stores={app}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    expect(screen.getByText('lisinopril').className).toBe('unsure');
    fireEvent.click(screen.getByRole('button', { name: 'Select next unsure word (1)' }));
    const box = screen.getByLabelText('Dictated text') as HTMLTextAreaElement;
    expect(box.value.slice(box.selectionStart, box.selectionEnd)).toBe('lisinopril');
  });

  it('lists the voice commands', async () => {
    await act(async () => {
      render(<StoresProvider stores={stores()}><DictationPage onUseAsTranscript={() => undefined} /></StoresProvider>);
    });
    fireEvent.click(screen.getByText('Voice commands'));
    expect(screen.getByRole('cell', { name: 'scratch that / delete that' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'insert <macro name>' })).toBeTruthy();
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
