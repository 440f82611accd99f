// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The Codes panel of the note view against the real local API: suggestions with their evidence
 * marked over the exact characters the coder read (also after a character outside the BMP),
 * accept and reject with accessible names and pressed states, accepted codes saved with the visit
 * and still accepted after a reload; a negated finding is never offered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { CodesPanel, EvidenceNote, useActiveEvidence } from '../../renderer/components/codes-panel.js';
import { splitByCodePoints } from '../../renderer/state/codes-store.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { startServer, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';

afterEach(cleanup);

// A patient-written emoji and a mathematical letter (two UTF-16 units each) before the evidence.
const NOTE = '# Visit 🩺\n\nPatient says 𝒜 lot of thirst.\n\n## Assessment\n- Type 2 diabetes mellitus with diabetic chronic kidney disease, CKD stage 3a.\n- Left knee osteoarthritis.\n- Denies chest pain.\n';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
  client = createApiClient({ baseUrl: server.base, ...server.creds });
});
afterAll(async () => server?.close());

/** One page of the app over `storage`, connected to the test server. */
function page(storage: MemoryStorage): AppStores {
  const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage, autosaveMs: 3_600_000 });
  app.connection.setState({ status: 'ready', client });
  return app;
}

/** The panel and the note view as the notes page lays them out. */
function NoteWithCodes() {
  const evidence = useActiveEvidence();
  return (
    <>
      {evidence ? <EvidenceNote text={evidence.text} suggestion={evidence.suggestion} /> : <p>plain note</p>}
      <CodesPanel />
    </>
  );
}

describe('splitting by code points', () => {
  it('marks the same characters the offsets name, past surrogate pairs', () => {
    const text = '🩺 𝒜 knee pain';
    const parts = splitByCodePoints(text, [{ start_char: 4, end_char: 8 }]);
    expect(parts).toEqual([{ text: '🩺 𝒜 ', marked: false }, { text: 'knee', marked: true }, { text: ' pain', marked: false }]);
    // UTF-16 indexing would have marked two characters too early.
    expect(text.slice(4, 8)).not.toBe('knee');
  });
});

describe('codes panel', () => {
  it('suggests codes, marks the evidence in the note exactly, and saves accepted codes with the visit across a reload', { timeout: 60_000 }, async () => {
    const storage = new MemoryStorage();
    const a = page(storage);
    a.notes.setState({ markdown: NOTE, patientName: 'Coding Test Patient' });
    render(<StoresProvider stores={a}><NoteWithCodes /></StoresProvider>);

    fireEvent.click(screen.getByRole('button', { name: 'Suggest codes' }));
    // The first request loads the code table (a few seconds on a busy machine).
    const list = await screen.findByRole('list', { name: 'Suggested codes' }, { timeout: 30_000 });
    const codes = within(list).getAllByRole('listitem').map((li) => li.getAttribute('data-code')).filter(Boolean);
    expect(codes).toEqual(expect.arrayContaining(['E11.22', 'N18.31', 'M17.12']));
    expect(codes.some((c) => c!.startsWith('R07'))).toBe(false); // "Denies chest pain" is not coded
    expect(screen.getByText(/negated, ruled-out or uncertain finding/)).toBeTruthy();
    // Each ICD-10-CM suggestion says which rule or convention chose it.
    expect(within(list.querySelector('li[data-code="M17.12"]') as HTMLElement).getByTestId('code-rule').textContent).toMatch(/^Why this code: .*osteoarthritis/i);

    // Evidence: the marked characters are the evidence text, and they sit where the API's code points say.
    const analysis = a.codes.getState().suggestions.find((c) => c.code === 'M17.12')!;
    fireEvent.click(screen.getByRole('button', { name: /^Show evidence for M17\.12 / }));
    const note = await screen.findByTestId('evidence-note');
    const marks = [...note.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(analysis.evidence.map((e) => e.text));
    expect(marks.join(' ').toLowerCase()).toContain('osteoarthritis');
    // The evidence is marked inside the formatted note (headings, list items), not over its raw markdown.
    expect(note.textContent).not.toContain('## ');
    expect([...note.querySelectorAll('li')].map((li) => li.textContent)).toContain('Left knee osteoarthritis.');
    expect(note.querySelector('li mark')?.textContent).toBe(marks.find((m) => /osteoarthritis/i.test(m!)));
    const first = analysis.evidence[0]!;
    expect(Array.from(NOTE).slice(first.start_char, first.end_char).join('')).toBe(marks[0]);
    expect(screen.getByRole('button', { name: /^Show evidence for M17\.12 / }).getAttribute('aria-pressed')).toBe('true');
    // Hovering another suggestion shows its evidence for as long as the pointer stays; then the chosen one returns.
    const diabetes = list.querySelector('li[data-code="E11.22"]')!;
    fireEvent.mouseEnter(diabetes);
    expect(screen.getByTestId('evidence-note').getAttribute('aria-label')).toBe('Note with the evidence for E11.22');
    fireEvent.mouseLeave(diabetes);
    expect(screen.getByTestId('evidence-note').getAttribute('aria-label')).toBe('Note with the evidence for M17.12');

    // Accept two, reject one: pressed states say so, and the visit holds exactly the accepted two.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Accept E11\.22 / })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Accept M17\.12 / })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Reject N18\.31 / })));
    expect(screen.getByRole('button', { name: /^Accept E11\.22 / }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /^Reject N18\.31 / }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /^Accept N18\.31 / }).getAttribute('aria-pressed')).toBe('false');
    await waitFor(() => expect(a.visits.getState().save).toBe('saved'));
    const id = a.visits.getState().currentId!;
    const saved = await client.getVisit(id);
    expect(saved.codes.map((c) => c.code)).toEqual(['E11.22', 'M17.12']);
    expect(saved.rejectedCodes.map((c) => c.code)).toEqual(['N18.31']);
    expect(saved.codes[0]).toMatchObject({ system: 'ICD-10-CM', display: expect.stringMatching(/diabetic chronic kidney disease/i) });

    // Changing one's mind: rejecting an accepted code takes it out of the visit.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Reject M17\.12 / })));
    await waitFor(async () => expect((await client.getVisit(id)).codes.map((c) => c.code)).toEqual(['E11.22']));
    expect((await client.getVisit(id)).rejectedCodes.map((c) => c.code).sort()).toEqual(['M17.12', 'N18.31']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Accept M17\.12 / })));
    await waitFor(() => expect(a.visits.getState().save).toBe('saved'));
    cleanup();

    // A reload: a fresh page over the same browser storage reopens the visit with its accepted codes.
    const reloaded = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage, autosaveMs: 3_600_000 });
    await act(async () => {
      reloaded.connection.setState({ status: 'ready', client });
      await waitFor(() => expect(reloaded.visits.getState().currentId).toBe(id));
    });
    render(<StoresProvider stores={reloaded}><CodesPanel /></StoresProvider>);
    const accepted = screen.getByRole('list', { name: 'Accepted codes' });
    expect(within(accepted).getAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent)).toEqual(['E11.22', 'M17.12']);
    // Suggested again after the reload, the rejected code is still rejected, not offered as undecided.
    await act(async () => reloaded.notes.setState({ markdown: NOTE }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Suggest codes' })));
    await screen.findByRole('list', { name: 'Suggested codes' }, { timeout: 30_000 });
    expect(screen.getByRole('button', { name: /^Reject N18\.31 / }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: /^Accept E11\.22 / }).getAttribute('aria-pressed')).toBe('true');
  });

  it('does not mark a note that changed after the analysis', { timeout: 60_000 }, async () => {
    const a = page(new MemoryStorage());
    a.notes.setState({ markdown: NOTE });
    render(<StoresProvider stores={a}><NoteWithCodes /></StoresProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'Suggest codes' }));
    await screen.findByRole('list', { name: 'Suggested codes' }, { timeout: 30_000 });
    await act(async () => a.notes.setState({ markdown: `Edited.\n${NOTE}` }));
    expect(screen.getByText(/The note changed since these codes were suggested/)).toBeTruthy();
    expect((screen.getByRole('button', { name: /^Show evidence for E11\.22 / }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByTestId('evidence-note')).toBeNull();
  });
});
