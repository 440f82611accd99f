/**
 * Signed means signed (issue 27.3), against the real local API: once signed, the note and its
 * transcript take no changes in the interface and Generate is refused; "Start a new version"
 * writes a new draft beside the signed note, which stays signed and unchanged on the server and
 * in the visit; every note of the visit is listed with its status (also after reopening the
 * visit); the line the physician added to the signed note is offered, ticked, and goes back under
 * its heading in the new draft when chosen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { locked } from '../../renderer/state/note-store.js';
import { createAppStores, type AppStores } from '../../renderer/state/stores.js';
import { MemoryStorage } from '../support/memory-storage.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer();
  client = createApiClient({ baseUrl: server.base, ...server.creds });
});
afterAll(async () => server?.close());

const TRANSCRIPT = 'Doctor: What brings you in? Patient: Sore throat for two days. Doctor: Throat red, no exudate. Plan: fluids and rest.';
const ADDED = '- Return in two weeks if not better';

function app(storage: MemoryStorage): AppStores {
  const a = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage, autosaveMs: 3_600_000 });
  a.connection.setState({ status: 'ready', client });
  return a;
}

/** Waits for a note being written, pausing between polls as the page does (the rate limit counts them). */
async function done(a: AppStores): Promise<void> {
  for (let i = 0; i < 2_000 && a.notes.getState().status !== 'STATUS_DONE'; i++) {
    if (a.notes.getState().status === 'STATUS_FAILED') throw new Error(a.notes.getState().error);
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(a.notes.getState().status).toBe('STATUS_DONE');
}

describe('a signed note stays; a new version is a new draft', () => {
  it('locks the signed note and its transcript, writes a new version beside it, lists both, and offers the added line back', { timeout: 120_000 }, async () => {
    const storage = new MemoryStorage();
    const a = app(storage);
    const notes = a.notes;
    notes.getState().set({ transcript: TRANSCRIPT, patientName: 'Version Test' });
    await notes.getState().generate();
    expect(notes.getState().status).toBe('STATUS_DONE');
    // The physician adds a plan line, then signs.
    const generated = notes.getState().markdown;
    const withPlan = /## Plan\n/.test(generated) ? generated.replace(/(## Plan\n(?:.*\S.*\n)*)/, `$1${ADDED}\n`) : `${generated.trimEnd()}\n\n## Plan\n${ADDED}\n`;
    notes.getState().setMarkdown(withPlan);
    await notes.getState().sign('Dr. Ana Lopez');
    expect(notes.getState().signature.status).toBe('signed');
    const signedId = notes.getState().noteId!;
    const signedText = (await client.getNote(signedId)).payload!.markdown;
    expect(signedText).toContain(ADDED);
    await a.visits.getState().flush();
    const visitId = a.visits.getState().currentId!;

    // Read-only: the transcript does not change, and Generate (Ctrl+Enter too) is refused with what to do.
    expect(locked(notes.getState())).toBe(true);
    notes.getState().set({ transcript: 'something else', patientName: 'Version Test' });
    expect(notes.getState().transcript).toBe(TRANSCRIPT);
    expect(notes.getState().error).toMatch(/signed: its transcript stays/);
    await notes.getState().generate();
    expect(notes.getState().noteId).toBe(signedId);
    expect(notes.getState().error).toMatch(/Start a new version/);

    // Start a new version: the transcript opens, and writing makes a second note.
    notes.getState().startNewVersion(true);
    expect(locked(notes.getState())).toBe(false);
    notes.getState().set({ transcript: `${TRANSCRIPT} Doctor: Also take honey for the cough.` });
    await notes.getState().generate();
    await done(a);
    const draftId = notes.getState().noteId!;
    expect(draftId).not.toBe(signedId);
    expect(notes.getState().signature.status).toBe('draft');
    expect(locked(notes.getState())).toBe(false);

    // The signed note is untouched on the server and still in the visit.
    const signedNow = await client.getNote(signedId);
    expect(signedNow.signature).toMatchObject({ status: 'signed', signedBy: 'Dr. Ana Lopez' });
    expect(signedNow.payload!.markdown).toBe(signedText);
    await a.visits.getState().flush();
    expect((await client.getVisit(visitId)).notes.map((n) => n.noteId)).toEqual([signedId, draftId]);
    expect(notes.getState().versions.map((v) => [v.noteId, v.signature.status])).toEqual([[signedId, 'signed'], [draftId, 'draft']]);

    // The physician's added line is offered, ticked; choosing it puts it under Plan and saves the draft.
    const carry = notes.getState().carry!;
    expect(carry).toMatchObject({ fromNoteId: signedId, fromSigned: true });
    const line = carry.lines.find((l) => l.text === ADDED)!;
    expect(line).toMatchObject({ section: 'Plan', added: true });
    await notes.getState().acceptCarry([line]);
    expect(notes.getState().carry).toBeUndefined();
    const draft = (await client.getNote(draftId)).payload!.markdown;
    expect(draft).toMatch(new RegExp(`## Plan\\n(?:.*\\n)*?${ADDED}`));
    expect(draft.indexOf(ADDED)).toBeGreaterThan(draft.indexOf('## Plan'));

    // Reopened in another window: both notes listed with their status, the signed one opens read-only.
    const b = app(new MemoryStorage());
    await b.visits.getState().open(visitId);
    await b.notes.getState().refreshVersions(visitId);
    expect(b.notes.getState().versions.map((v) => [v.noteId, v.signature.status])).toEqual([[signedId, 'signed'], [draftId, 'draft']]);
    await b.notes.getState().load(signedId);
    expect(b.notes.getState().markdown).toBe(signedText);
    expect(locked(b.notes.getState())).toBe(true);
  });

  it('keeps in the visit a note replaced on screen before the autosave ran', async () => {
    const a = app(new MemoryStorage());
    a.notes.getState().set({ transcript: TRANSCRIPT });
    await a.notes.getState().generate();
    await a.visits.getState().flush();
    const first = a.notes.getState().noteId!;
    await a.notes.getState().generate(); // a second note, not yet saved into the visit (autosave waits an hour here)
    const second = a.notes.getState().noteId!;
    await a.notes.getState().load(first); // the first shown again, still without a save in between
    await a.visits.getState().flush();
    expect((await client.getVisit(a.visits.getState().currentId!)).notes.map((n) => n.noteId)).toEqual([first, second]);
  }, 90_000);

  it('the API itself refuses to change a signed note (409), whatever the interface does', async () => {
    const storage = new MemoryStorage();
    const a = app(storage);
    a.notes.getState().set({ transcript: TRANSCRIPT });
    await a.notes.getState().generate();
    await a.notes.getState().sign('Dr. Ana Lopez');
    const id = a.notes.getState().noteId!;
    await expect(client.editNote(id, '# Replaced', a.notes.getState().version!)).rejects.toMatchObject({ status: 409 });
    expect((await client.getNote(id)).payload!.markdown).not.toBe('# Replaced');
  }, 60_000);
});
