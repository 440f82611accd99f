/**
 * The open visit autosaves everything typed and dictated, and a fresh page (a reload) reopens it
 * with the transcript, the dictation and its macro marks, the patient, the note and the
 * physician's edits; two windows on one visit do not overwrite each other silently.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { createDictationStore } from '../../renderer/state/dictation-store.js';
import { createNoteStore } from '../../renderer/state/note-store.js';
import { createVisitStore } from '../../renderer/state/visit-store.js';
import * as docs from '../../renderer/state/dictation-doc.js';
import { MemoryStorage } from '../support/memory-storage.js';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer();
  client = createApiClient({ baseUrl: server.base, ...server.creds });
});
afterAll(async () => server?.close());

/** One page of the app: its stores over one browser storage. */
function page(storage: MemoryStorage, debounceMs = 3_600_000) {
  const dictation = createDictationStore({
    client: () => client, listMicrophones: async () => [], now: () => performance.now(),
    startCapture: async () => ({ sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined }),
    createStream: () => ({ start: () => undefined, sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' }),
  });
  // A real pause between polls: the note is written in a worker thread (seconds when cold), and
  // polling with no pause spends the account's rate limit before it is done.
  const notes = createNoteStore({ client: () => client, sleep: () => new Promise((r) => setTimeout(r, 25)) });
  const visits = createVisitStore({ client: () => client, dictation, notes, storage, debounceMs });
  return { dictation, notes, visits };
}

const MARKED: docs.DocPiece[] = [
  { kind: 'text', id: 1, utterance: 1, text: 'Cough for three days. ' },
  { kind: 'macro', id: 2, utterance: 1, macroId: 'nce', original: 'normal chest exam', tail: '.', expansion: 'Lungs clear to auscultation.', undone: false, confidence: 1 },
];

describe('visit autosave and reload', () => {
  it('saves a moment after the physician types, without being asked', async () => {
    const a = page(new MemoryStorage(), 5);
    a.notes.getState().set({ patientName: 'Autosaved Person' });
    await waitFor(async () => (a.visits.getState().save === 'saved' ? true : undefined));
    const saved = await client.getVisit(a.visits.getState().currentId!);
    expect(saved.patient.name).toBe('Autosaved Person');
  });

  it('creates no visit while nothing was typed or dictated', async () => {
    const a = page(new MemoryStorage());
    await a.visits.getState().flush();
    expect(a.visits.getState().currentId).toBeUndefined();
  });

  it('reopens everything after a reload: dictation with its macro marks, transcript, patient, note and its edits', async () => {
    const storage = new MemoryStorage();
    const a = page(storage);
    a.dictation.setState({ doc: { ...docs.emptyDoc(), pieces: MARKED, nextId: 3 } });
    a.notes.getState().set({ transcript: 'Doctor: what brings you in? Patient: a cough for three days.', patientName: 'Ana Test', dateOfBirth: '1980-02-03', date: '2026-11-20', medicationList: 'amoxicillin' });
    await a.notes.getState().generate();
    expect(a.notes.getState().status).toBe('STATUS_DONE');
    a.notes.getState().setMarkdown('# Assessment\n\nViral cough (edited before the reload).');
    await a.visits.getState().flush();
    expect(a.visits.getState().save).toBe('saved');

    const b = page(storage); // the reloaded page
    await b.visits.getState().restore();
    expect(b.visits.getState().currentId).toBe(a.visits.getState().currentId);
    expect(docs.docText(b.dictation.getState().doc)).toBe('Cough for three days. Lungs clear to auscultation.');
    const macro = b.dictation.getState().doc.pieces.find((p) => p.kind === 'macro');
    expect(macro).toMatchObject({ macroId: 'nce', original: 'normal chest exam', undone: false });
    b.dictation.getState().toggleExpansion(macro!.id);
    expect(docs.docText(b.dictation.getState().doc)).toBe('Cough for three days. normal chest exam.');
    const n = b.notes.getState();
    expect(n).toMatchObject({ transcript: 'Doctor: what brings you in? Patient: a cough for three days.', patientName: 'Ana Test', dateOfBirth: '1980-02-03', date: '2026-11-20', medicationList: 'amoxicillin' });
    await waitFor(async () => (b.notes.getState().status === 'STATUS_DONE' ? true : undefined));
    expect(b.notes.getState().markdown).toBe('# Assessment\n\nViral cough (edited before the reload).');
    expect(b.notes.getState().noteId).toBe(a.notes.getState().noteId);
  }, 90_000); // the first note of a server waits for a compute worker to load the writer (seconds; more on a loaded machine)

  it('does not let two windows overwrite each other silently, and lets the physician choose', async () => {
    const storage = new MemoryStorage();
    const a = page(storage);
    a.notes.getState().set({ transcript: 'first words' });
    await a.visits.getState().flush();
    const b = page(storage); // a second window on the same visit
    await b.visits.getState().restore();

    a.notes.getState().set({ transcript: 'typed in window A' });
    await a.visits.getState().flush();
    b.notes.getState().set({ transcript: 'typed in window B' });
    await b.visits.getState().flush();
    expect(b.visits.getState().save).toBe('conflict');
    const id = a.visits.getState().currentId!;
    expect((await client.getVisit(id)).transcript).toBe('typed in window A');
    // Further changes in B wait for the physician's choice instead of being sent.
    b.notes.getState().set({ transcript: 'typed in window B, more' });
    await b.visits.getState().flush();
    expect((await client.getVisit(id)).transcript).toBe('typed in window A');

    await b.visits.getState().keepMine();
    expect(b.visits.getState().save).toBe('saved');
    expect((await client.getVisit(id)).transcript).toBe('typed in window B, more');
    // A learns of it on its next save, and can take B's version.
    a.notes.getState().set({ transcript: 'A again' });
    await a.visits.getState().flush();
    expect(a.visits.getState().save).toBe('conflict');
    await a.visits.getState().keepTheirs();
    expect(a.notes.getState().transcript).toBe('typed in window B, more');
    expect(a.visits.getState().save).toBe('saved');
  });

  it('starts a new visit, lists today’s visits first, finds one by patient name, reopens and deletes it', async () => {
    const storage = new MemoryStorage();
    const a = page(storage);
    a.notes.getState().set({ patientName: 'Ruth Searchable' });
    a.dictation.getState().replaceText('Left ankle sprain.');
    await a.visits.getState().flush();
    const first = a.visits.getState().currentId!;
    await a.visits.getState().startNew();
    expect(a.notes.getState().patientName).toBe('');
    expect(a.dictation.getState().text()).toBe('');
    a.notes.getState().set({ patientName: 'Otto Second' });
    await a.visits.getState().flush();
    expect(a.visits.getState().currentId).not.toBe(first);

    await a.visits.getState().search('');
    expect(a.visits.getState().items[0]!.patient.name).toBe('Otto Second');
    await a.visits.getState().search('searchable');
    expect(a.visits.getState().items.map((v) => v.id)).toEqual([first]);
    await a.visits.getState().search('ankle');
    expect(a.visits.getState().items.map((v) => v.id)).toEqual([first]);

    await a.visits.getState().open(first);
    expect(a.notes.getState().patientName).toBe('Ruth Searchable');
    expect(a.dictation.getState().text()).toBe('Left ankle sprain.');
    await a.visits.getState().remove(first);
    expect(a.visits.getState().currentId).toBeUndefined();
    expect(a.dictation.getState().text()).toBe('');
    await expect(client.getVisit(first)).rejects.toMatchObject({ status: 404 });
  });
});
