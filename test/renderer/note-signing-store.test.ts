/**
 * The note store's draft, sign and amend against the real local API: edits are saved before
 * signing, a signed note no longer takes edits, an addendum makes it amended, and an edit made
 * in another window is not overwritten.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { createNoteStore } from '../../renderer/state/note-store.js';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer();
  client = createApiClient({ baseUrl: server.base, ...server.creds });
});
afterAll(async () => server?.close());

const TRANSCRIPT = 'Doctor: What brings you in? Patient: Sore throat for two days. Doctor: Throat red, no exudate. Plan: fluids.';

async function generated() {
  // A real pause between polls: the note is written in a worker thread (seconds when cold), and
  // polling with no pause spends the account's rate limit before it is done.
  const notes = createNoteStore({ client: () => client, sleep: () => new Promise((r) => setTimeout(r, 25)) });
  notes.getState().set({ transcript: TRANSCRIPT });
  await notes.getState().generate();
  expect(notes.getState().status).toBe('STATUS_DONE');
  return notes;
}

describe('note store: draft, sign, amend', () => {
  it('saves the physician’s edits, then signs; the signed note takes no more edits', async () => {
    const notes = await generated();
    expect(notes.getState().signature).toEqual({ status: 'draft' });
    notes.getState().setMarkdown('# Plan\n\nFluids; edited before signing.');
    await notes.getState().sign('Dr. Ana Lopez');
    expect(notes.getState().signature).toMatchObject({ status: 'signed', signedBy: 'Dr. Ana Lopez' });
    const onServer = await client.getNote(notes.getState().noteId!);
    expect(onServer.payload?.markdown).toBe('# Plan\n\nFluids; edited before signing.');
    expect(onServer.signature.status).toBe('signed');

    notes.getState().setMarkdown('changed after signing');
    expect(notes.getState().markdown).toBe('# Plan\n\nFluids; edited before signing.');
    notes.getState().setEditing(true);
    expect(notes.getState().editing).toBe(false);

    await notes.getState().addAddendum('Rapid strep negative.', 'Dr. Ana Lopez');
    expect(notes.getState().signature.status).toBe('amended');
    expect(notes.getState().addenda.map((a) => a.text)).toEqual(['Rapid strep negative.']);
  });

  it('does not overwrite an edit saved from another window, and says so', async () => {
    const notes = await generated();
    const id = notes.getState().noteId!;
    await client.editNote(id, '# Saved in the other window', notes.getState().version!);
    notes.getState().setMarkdown('# Mine');
    expect(await notes.getState().saveEdits()).toBe(false);
    expect(notes.getState().error).toMatch(/another window/);
    expect((await client.getNote(id)).payload?.markdown).toBe('# Saved in the other window');
  });
});
