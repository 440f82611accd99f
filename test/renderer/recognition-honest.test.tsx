// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * Issue 27 point 1 in the app, against the real local API: the Dictation page names the recogniser
 * with its measured accuracy (the figure GET /v1/engines gives, with its date) and offers a better
 * model (no speech model in the catalog: import, then "Use it for dictation"); a transcript with
 * many unsure words carries its share to the visit, is announced beside Generate, and its note's
 * review list opens with a `transcript` item.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor as waitForDom, within } from '@testing-library/react';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '../../renderer/app.js';
import { CREDENTIALS_KEY } from '../../renderer/api/connection.js';
import { dictationFigure } from '../../renderer/components/recogniser-line.js';
import { emptyDoc, type DocPiece } from '../../renderer/state/dictation-doc.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import type { EnginesStatus } from '../../shared/api/models.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';

let server: TestServer;
let work: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-recogniser-'));
  server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});
afterEach(cleanup);

async function openApp(): Promise<AppStores> {
  const local = new MemoryStorage();
  local.setItem(CREDENTIALS_KEY, JSON.stringify(server.creds));
  const app = createAppStores({
    bridge: undefined,
    connectionEnv: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined },
    local,
    autosaveMs: 5,
    fetch: (input, init) => fetch(typeof input === 'string' && input.startsWith('/') ? `${server.base}${input}` : input, init),
    dictation: { listMicrophones: async () => [] },
  });
  await act(async () => {
    render(<StoresProvider stores={app}><App /></StoresProvider>);
  });
  await screen.findByText('Local API connected');
  const skip = await screen.findByRole('button', { name: 'Skip for now' });
  await act(async () => fireEvent.click(skip));
  return app;
}

const api = async <T,>(path: string): Promise<T> => ((await (await fetch(`${server.base}${path}`, { headers: server.headers() })).json()) as { data: T }).data;

/** Dictated text of ten words, four of them marked unsure (as the live stream's confidences mark them). */
function unsureDictation(): DocPiece[] {
  const words = ['Patient', 'reports', 'chest', 'pain', 'radiating', 'to', 'the', 'left', 'arm', 'today.'];
  const unsure = new Set([2, 4, 7, 8]);
  return words.map((w, i) => ({ kind: 'text', id: i + 1, utterance: 1, text: i < words.length - 1 ? `${w} ` : w, ...(unsure.has(i) ? { confidence: 0.2 } : {}) }) as DocPiece)
    // Unsure words are pieces of their own without the space after them, as the live editor keeps them.
    .flatMap((p) => (p.kind === 'text' && p.confidence !== undefined && p.text.endsWith(' ')
      ? [{ ...p, text: p.text.trimEnd() }, { kind: 'text', id: p.id + 100, utterance: 1, text: ' ' } as DocPiece] : [p]));
}

describe('recognition that is honest', () => {
  it('names the recogniser with its measured figure, and warns before a note from a mostly unsure transcript', { timeout: 90_000 }, async () => {
    const app = await openApp();
    const status = await api<EnginesStatus>('/v1/engines');
    const dictation = status.tasks.find((t) => t.task === 'dictation')!;
    const figure = dictationFigure(dictation.quality);
    const line = await screen.findByTestId('recogniser-line', {}, { timeout: 10_000 });
    const accuracy = within(line).getByTestId('recogniser-accuracy').textContent!;
    // The test server dictates with the embedded recogniser, measured in resources/models/quality.json.
    expect(dictation.engine).toBe('pocketsphinx');
    expect(figure).toBeDefined();
    expect(accuracy).toContain(`${figure!.value}% of words wrong live`);
    expect(accuracy).toContain(`measured ${figure!.date}`);
    expect(line.textContent).toContain('Embedded recogniser');
    // First run on the embedded recogniser: the offer is open, and says plainly the catalog has no speech model.
    expect(within(line).getByTestId('no-catalog-speech').textContent).toMatch(/lists no speech model to download/);
    expect(within(line).getByLabelText(/Import a speech model from a folder/)).toBeTruthy();

    act(() => app.dictation.setState({ doc: { ...emptyDoc(), pieces: unsureDictation(), nextId: 300 } }));
    fireEvent.click(screen.getByRole('button', { name: 'Use as note transcript' }));
    const notice = await screen.findByTestId('unsure-notice');
    expect(notice.textContent).toContain('unsure of 40% of its words');
    expect(notice.textContent).toContain('warns from 30%');
    expect(screen.getByTestId('unsure-detail').textContent).toContain('review list will say');
    const generate = screen.getByRole('button', { name: 'Generate note' });
    expect(generate.getAttribute('aria-describedby')).toBe(notice.id);

    // Not a modal: Generate writes the note, and the note's review list says its source was mostly unsure.
    await act(async () => fireEvent.click(generate));
    await waitFor(async () => (app.notes.getState().status === 'STATUS_DONE' ? true : undefined), 60_000);
    const note = await api<{ payload: { json: { review: { kind: string; text: string }[] } } }>(`/v1/notes/${app.notes.getState().noteId}`);
    expect(note.payload.json.review[0]).toMatchObject({ kind: 'transcript', text: expect.stringContaining('40%') });
    // And the note on screen says it above the note.
    expect((await screen.findByTestId('note-source-unsure')).textContent).toContain('written from a transcript with 40% of its words unsure');
    // The visit keeps the share with its transcript.
    await waitFor(async () => (app.visits.getState().save === 'saved' ? true : undefined));
    expect((await api<{ transcriptUnsureShare: number | null }>(`/v1/visits/${app.visits.getState().currentId}`)).transcriptUnsureShare).toBe(0.4);

    // Text typed in place of it is not unsure: emptied, the share is forgotten and the notice goes.
    const transcript = screen.getByLabelText('Transcript');
    fireEvent.change(transcript, { target: { value: '' } });
    fireEvent.change(transcript, { target: { value: 'Typed by the physician: chest pain for two days.' } });
    await waitForDom(() => expect(screen.queryByTestId('unsure-notice')).toBeNull());
    expect(app.notes.getState().transcriptUnsureShare).toBeNull();
  });

  it('stops Ctrl+Enter from Dictation at the warning: the note is written on the second Ctrl+Enter', { timeout: 90_000 }, async () => {
    const app = await openApp();
    act(() => app.dictation.setState({ doc: { ...emptyDoc(), pieces: unsureDictation(), nextId: 300 } }));
    await act(async () => fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true }));
    expect((await screen.findByTestId('unsure-notice')).textContent).toContain('40%');
    expect(app.notes.getState().status).toBe('idle');
    expect(app.notes.getState().noteId).toBeUndefined();
    await act(async () => fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true }));
    await waitFor(async () => (app.notes.getState().status === 'STATUS_DONE' ? true : undefined), 60_000);
    expect(await screen.findByTestId('note-source-unsure')).toBeTruthy();
  });

  it('imports a speech model from the line and makes it the recogniser in one step', { timeout: 90_000 }, async () => {
    await openApp();
    const line = await screen.findByTestId('recogniser-line', {}, { timeout: 10_000 });
    // A fresh browser: the offer is open on first run.
    expect(within(line).getByTestId('recogniser-offer')).toBeTruthy();
    fireEvent.change(within(line).getByLabelText(/Import a speech model from a folder/), { target: { value: writeTinyWhisper(join(work, 'office-whisper')) } });
    await act(async () => fireEvent.click(within(line).getByRole('button', { name: 'Import' })));
    const use = await within(line).findByRole('button', { name: 'Use it for dictation' }, { timeout: 20_000 });
    await act(async () => fireEvent.click(use));
    await within(line).findByText(/^Dictation now uses /, {}, { timeout: 30_000 });
    const settings = await api<{ asrEngine: string }>('/v1/settings/engines');
    expect(settings.asrEngine).not.toBe('pocketsphinx');
    // The line now names the imported model, and the offer has nothing left to switch to.
    await waitForDom(() => expect(line.textContent).not.toContain('Embedded recogniser'), { timeout: 10_000 });
    expect(within(line).queryByRole('button', { name: 'Use it for dictation' })).toBeNull();
  });
});
