// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * Issue 27 point 2 in the app shell, against the real local API: a new visit asks for the patient
 * (name, date of birth, encounter date; skippable), the visit's header shows them on Dictation and
 * Note, they are saved with the visit, and the Visits page lists name, date of birth and the note's
 * status and finds a visit by date of birth.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor as waitForDom, within } from '@testing-library/react';
import { App } from '../../renderer/app.js';
import { ageOn, localDay } from '../../renderer/components/visit-header.js';
import { CREDENTIALS_KEY } from '../../renderer/api/connection.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
});
afterAll(async () => server?.close());
afterEach(cleanup);

/** The app as a browser signed in earlier opens it: credentials remembered, no visit open yet. */
async function openApp(local = new MemoryStorage()): Promise<AppStores> {
  local.setItem(CREDENTIALS_KEY, JSON.stringify(server.creds));
  const app = createAppStores({
    bridge: undefined,
    connectionEnv: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined },
    local,
    autosaveMs: 5,
    fetch: (input, init) => fetch(typeof input === 'string' && input.startsWith('/') ? `${server.base}${input}` : input, init),
    dictation: {
      listMicrophones: async () => [],
      startCapture: async () => ({ sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined }),
      createStream: () => ({ start: () => undefined, sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' }),
    },
  });
  await act(async () => {
    render(<StoresProvider stores={app}><App /></StoresProvider>);
  });
  await screen.findByText('Local API connected');
  return app;
}

describe('patient first', () => {
  it('works out an age from the date of birth on the encounter day', () => {
    expect(ageOn('1956-03-14', '2026-03-13')).toBe(69);
    expect(ageOn('1956-03-14', '2026-03-14')).toBe(70);
    expect(ageOn('2030-01-01', '2026-03-14')).toBeUndefined();
    expect(localDay(new Date(2026, 0, 5))).toBe('2026-01-05');
  });

  it('asks a new visit for the patient, shows them on Dictation and Note, saves them, and lists and finds the visit by date of birth', async () => {
    const app = await openApp();
    await screen.findByRole('form', { name: 'New visit: who is the patient?' });
    // The Note page keeps its own patient fields; its header only offers to add the patient.
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    expect(screen.queryByRole('form', { name: 'New visit: who is the patient?' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add patient' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dictation' }));
    const form = screen.getByRole('form', { name: 'New visit: who is the patient?' });
    expect((within(form).getByLabelText('Encounter date') as HTMLInputElement).value).toBe(localDay());
    fireEvent.change(within(form).getByLabelText('Patient name'), { target: { value: 'Hedda Gabler' } });
    fireEvent.change(within(form).getByLabelText('Date of birth'), { target: { value: '1956-03-14' } });
    fireEvent.change(within(form).getByLabelText('Encounter date'), { target: { value: '2026-11-20' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Start visit' })));

    const header = screen.getByRole('group', { name: 'Patient of this visit' });
    expect(header.textContent).toContain('Hedda Gabler');
    expect(header.textContent).toContain('(70)');
    expect(header.textContent).toMatch(/visit of .*2026/);
    fireEvent.click(screen.getByRole('button', { name: 'Note' }));
    expect(screen.getByTestId('visit-patient').textContent).toBe('Hedda Gabler');

    // Saved with the visit, as everything else is.
    await waitFor(async () => (app.visits.getState().save === 'saved' ? true : undefined));
    const saved = await app.connection.getState().client!.getVisit(app.visits.getState().currentId!);
    expect(saved).toMatchObject({ patient: { name: 'Hedda Gabler', dateOfBirth: '1956-03-14' }, encounterDate: '2026-11-20' });

    // A second visit skips the patient: the header offers to add one later.
    fireEvent.click(screen.getByRole('button', { name: 'Visits' }));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'New visit' })));
    await act(async () => fireEvent.click((await screen.findByRole('button', { name: 'Skip for now' }))));
    expect(screen.getByTestId('visit-patient').textContent).toBe('No patient named');
    expect(screen.getByRole('button', { name: 'Add patient' })).toBeTruthy();
    app.dictation.setState({ doc: { ...app.dictation.getState().doc, pieces: [{ kind: 'text', id: 1, utterance: 1, text: 'Unnamed patient, sore throat.' }], nextId: 2 } });
    await waitFor(async () => (app.visits.getState().save === 'saved' && app.visits.getState().currentId ? true : undefined));

    fireEvent.click(screen.getByRole('button', { name: 'Visits' }));
    const row = (await screen.findByText('Hedda Gabler')).closest('li')!;
    expect(within(row).getByTestId('visit-born').textContent).toMatch(/^born .*1956$/);
    expect(within(row).getByTestId('visit-note-state').textContent).toBe('No note yet');
    expect(row.textContent).toMatch(/Visit of .*2026/);
    const unnamed = (await screen.findByText('No patient name')).closest('li')!;
    expect(within(unnamed).getByTestId('visit-born').textContent).toBe('date of birth not given');

    const search = screen.getByRole('search');
    fireEvent.change(within(search).getByLabelText('Date of birth'), { target: { value: '1956-03-14' } });
    await act(async () => fireEvent.click(within(search).getByRole('button', { name: 'Search' })));
    await waitForDom(() => expect(screen.queryByText('No patient name')).toBeNull());
    expect(screen.getByText('Hedda Gabler')).toBeTruthy();
    fireEvent.change(within(search).getByLabelText('Date of birth'), { target: { value: '1956-03-15' } });
    await act(async () => fireEvent.click(within(search).getByRole('button', { name: 'Search' })));
    await screen.findByText('No visit matches.');
    await act(async () => fireEvent.click(within(search).getByRole('button', { name: 'Show all' })));
    await screen.findByText('Hedda Gabler');
  }, 60_000);

  it('does not ask again for a visit reopened after a reload; Edit patient changes the name', async () => {
    const local = new MemoryStorage();
    const first = await openApp(local);
    const form = await screen.findByRole('form', { name: 'New visit: who is the patient?' });
    fireEvent.change(within(form).getByLabelText('Patient name'), { target: { value: 'Peer Gynt' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Start visit' })));
    await waitFor(async () => (first.visits.getState().save === 'saved' && first.visits.getState().currentId ? true : undefined));
    cleanup();

    const again = await openApp(local);
    await waitForDom(() => expect(screen.getByTestId('visit-patient').textContent).toBe('Peer Gynt'));
    expect(screen.queryByRole('form', { name: 'New visit: who is the patient?' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit patient' }));
    const edit = screen.getByRole('form', { name: 'Patient of this visit' });
    expect(document.activeElement).toBe(within(edit).getByLabelText('Patient name'));
    fireEvent.change(within(edit).getByLabelText('Patient name'), { target: { value: 'Peer Gynt Jr.' } });
    await act(async () => fireEvent.click(within(edit).getByRole('button', { name: 'Save patient' })));
    expect(screen.getByTestId('visit-patient').textContent).toBe('Peer Gynt Jr.');
    await waitFor(async () => (again.visits.getState().save === 'saved' ? true : undefined));
    expect((await again.connection.getState().client!.getVisit(again.visits.getState().currentId!)).patient.name).toBe('Peer Gynt Jr.');
  }, 60_000);

  it('remembers "Skip for now" across a reload before anything is saved, and asks again for the next new visit', async () => {
    const local = new MemoryStorage();
    await openApp(local);
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Skip for now' })));
    cleanup();

    const again = await openApp(local);
    expect(again.visits.getState().currentId).toBeUndefined();
    expect(screen.queryByRole('form', { name: 'New visit: who is the patient?' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add patient' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Visits' }));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'New visit' })));
    expect(await screen.findByRole('form', { name: 'New visit: who is the patient?' })).toBeTruthy();
  }, 60_000);

  it('Sign out saves the open visit and takes the patient off the screen before the key form comes back', async () => {
    const local = new MemoryStorage();
    const app = await openApp(local);
    const form = await screen.findByRole('form', { name: 'New visit: who is the patient?' });
    fireEvent.change(within(form).getByLabelText('Patient name'), { target: { value: 'Nora Helmer' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Start visit' })));
    app.dictation.setState({ doc: { ...app.dictation.getState().doc, pieces: [{ kind: 'text', id: 1, utterance: 1, text: 'Said just before signing out.' }], nextId: 2 } });
    const client = app.connection.getState().client!;

    // From the header, on whatever page the physician is (Settings has the same button).
    await act(async () => fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign out' })));
    // The open visit is saved first (a request under way), then the form comes back.
    await screen.findByLabelText('Account id', {}, { timeout: 15_000 });
    expect(app.notes.getState().patientName).toBe('');
    expect(local.getItem('clindoc.visit')).toBeNull();
    expect(local.getItem(CREDENTIALS_KEY)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dictation' }));
    expect(screen.queryByText('Nora Helmer')).toBeNull();
    // Nothing typed was lost: the visit was saved before it left the screen.
    const saved = (await client.listVisits('nora helmer')).items;
    expect(saved).toHaveLength(1);
    expect(saved[0]!.preview).toBe('Said just before signing out.');
  }, 60_000);
});
