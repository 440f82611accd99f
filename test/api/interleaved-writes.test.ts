/**
 * Changes that read, check and then write stay correct when two requests interleave between the
 * read and the write, as they can once the stores answer with promises (a networked database,
 * or any store call that waits). The stores here are the real SQLite ones, each call made to wait
 * a turn of the event loop first, the way a round trip to a database server would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../main/store/database.js';
import { openKeyRing } from '../../main/store/crypto/key-ring.js';
import { createFieldCipher, type FieldCipher } from '../../main/store/crypto/field-cipher.js';
import { createNoteStore } from '../../main/store/note-store.js';
import { createDocumentStore } from '../../main/store/document-store.js';
import { createNoteSigning } from '../../main/services/notes/note-signing.js';
import { createTemplateService } from '../../main/services/templates/template-service.js';
import { createMacroLibraryService } from '../../main/services/macros/library-service.js';
import { createAccountStore } from '../../main/store/account-store.js';
import { createAccountService } from '../../main/services/accounts/account-service.js';
import { DomainError } from '../../main/services/errors.js';
import type { NoteRecord, NoteStore } from '../../main/services/storage.js';

/** The same store, each call answered on a later turn of the event loop. */
function overTheWire<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setImmediate(resolve));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

const kindOf = (result: PromiseSettledResult<unknown>): string =>
  result.status === 'fulfilled' ? 'ok' : result.reason instanceof DomainError ? result.reason.kind : 'other';

let dir: string;
let db: Db;
let cipher: FieldCipher;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'clindoc-interleave-'));
  db = openDatabase(join(dir, 'clindoc.db'));
  cipher = createFieldCipher(openKeyRing(join(dir, 'keyring.json'), randomBytes(32)));
  db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct', 'Clinic', 0)").run();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('note edit, sign and amend racing each other', () => {
  let notes: NoteStore;
  const draft = async (patch: Partial<NoteRecord> = {}): Promise<void> =>
    notes.insert({
      id: 'n1', accountId: 'acct', status: 'STATUS_DONE', request: { transcript: 'x' }, markdown: 'first draft', json: null, error: null,
      createdAt: 1, startedAt: 1, completedAt: 2, version: 1, signedAt: null, signedBy: null, addenda: [], ...patch,
    });
  beforeEach(() => {
    notes = overTheWire(createNoteStore(db, cipher));
  });

  it('lets one of two edits of the same version through and tells the other the note changed', async () => {
    await draft();
    const signing = createNoteSigning({ notes, now: Date.now });
    const results = await Promise.allSettled([signing.edit('acct', 'n1', 'edit A', 1), signing.edit('acct', 'n1', 'edit B', 1)]);
    expect(results.map(kindOf).sort()).toEqual(['ok', 'precondition_failed']);
    const winner = results.findIndex((r) => r.status === 'fulfilled');
    const note = (await notes.get('acct', 'n1'))!;
    expect(note.markdown).toBe(winner === 0 ? 'edit A' : 'edit B');
    expect(note.version).toBe(2);
  });

  it('never keeps an edit made after the signature: each change that succeeded counts once', async () => {
    await draft();
    const signing = createNoteSigning({ notes, now: Date.now });
    const results = await Promise.allSettled([signing.sign('acct', 'n1', 'Dr Ada Quill'), signing.edit('acct', 'n1', 'late edit', 1)]);
    const note = (await notes.get('acct', 'n1'))!;
    expect(note.signedBy).toBe('Dr Ada Quill');
    const edited = results[1]!.status === 'fulfilled';
    // Either the edit landed first (then the signature covers it) or it was refused as too late.
    expect(note.markdown).toBe(edited ? 'late edit' : 'first draft');
    expect(note.version).toBe(1 + results.filter((r) => r.status === 'fulfilled').length);
    if (!edited) expect(['conflict', 'precondition_failed']).toContain(kindOf(results[1]!));
  });

  it('keeps both of two addenda written at the same moment', async () => {
    await draft({ signedAt: 3, signedBy: 'Dr Ada Quill', version: 2 });
    const signing = createNoteSigning({ notes, now: Date.now });
    await Promise.all([
      signing.amend('acct', 'n1', { text: 'Potassium came back normal.', author: 'Dr Ada Quill' }),
      signing.amend('acct', 'n1', { text: 'Follow-up booked.', author: 'Dr Ada Quill' }),
    ]);
    const note = (await notes.get('acct', 'n1'))!;
    expect(note.addenda.map((a) => a.text).sort()).toEqual(['Follow-up booked.', 'Potassium came back normal.']);
    expect(note.version).toBe(4);
  });
});

describe('templates and saved macros racing each other', () => {
  const template = (title: string) => ({ id: 'visit', title, sections: [{ id: 'hpi', type: 'text', prompt: 'Summarise', properties: {} }] });

  it('answers 409 to one of two creates with the same id and keeps the other whole', async () => {
    const templates = createTemplateService({ store: overTheWire(createDocumentStore(db, 'note_templates', cipher)) });
    const results = await Promise.allSettled([templates.create('acct', template('First')), templates.create('acct', template('Second'))]);
    expect(results.map(kindOf).sort()).toEqual(['conflict', 'ok']);
    const kept = await templates.get('acct', 'visit');
    expect(kept.title).toBe(results[0]!.status === 'fulfilled' ? 'First' : 'Second');
  });

  it('does not bring back a template deleted while it was being replaced', async () => {
    const templates = createTemplateService({ store: overTheWire(createDocumentStore(db, 'note_templates', cipher)) });
    await templates.create('acct', template('First'));
    const results = await Promise.allSettled([templates.replace('acct', 'visit', template('Replaced')), templates.delete('acct', 'visit')]);
    expect(results[1]!.status).toBe('fulfilled');
    expect(['ok', 'not_found']).toContain(kindOf(results[0]!));
    await expect(templates.get('acct', 'visit')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('answers 409 to one of two saved macros with the same id', async () => {
    const library = createMacroLibraryService({ store: overTheWire(createDocumentStore(db, 'macros', cipher)) });
    const macro = (text: string) => ({ id: 'normal-exam', examples: ['normal exam'], expansion_text: text });
    const results = await Promise.allSettled([library.create('acct', macro('Heart and lungs normal.')), library.create('acct', macro('Abdomen soft.'))]);
    expect(results.map(kindOf).sort()).toEqual(['conflict', 'ok']);
    expect((await library.list('acct', 10)).items).toHaveLength(1);
  });
});

describe('the first start', () => {
  it('creates one local account when two starts ask at the same moment', async () => {
    db.prepare("DELETE FROM accounts WHERE id = 'acct'").run();
    const accounts = createAccountService({ store: overTheWire(createAccountStore(db)) });
    const created = await Promise.all([accounts.ensureLocalAccount(), accounts.ensureLocalAccount()]);
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await accounts.listAccounts()).toHaveLength(1);
  });
});
