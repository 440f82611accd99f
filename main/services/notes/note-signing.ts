/**
 * Draft, sign, amend. A note is a draft until a physician signs it: drafts may be edited (each
 * edit is a new version), a signed note is read-only, and what is learnt later is added as a
 * signed addendum. Every change takes the version the caller last saw (If-Match), so two windows
 * editing one note cannot overwrite each other without knowing.
 */
import { randomUUID } from 'node:crypto';
import type { NoteRecord, NoteStore } from '../storage.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';

/** Where a note stands in its life as a document (FHIR `docStatus`: preliminary, final, amended). */
export type SignatureStatus = 'draft' | 'signed' | 'amended';

/** The signature part of the note view. */
export interface SignatureView {
  status: SignatureStatus;
  signedBy?: string;
  /** Milliseconds since the Unix epoch. */
  signedAt?: number;
}

export interface AddendumView {
  id: string;
  text: string;
  author: string;
  createdAt: number;
}

export interface NoteSigning {
  /** Replaces a draft's markdown; 409 once signed, 412 when `version` is not the current one. */
  edit(accountId: string, noteId: string, markdown: string, version: number): Promise<NoteRecord>;
  /** Signs a finished draft as `signer`; `version`, when given, must be the current one. */
  sign(accountId: string, noteId: string, signer: string, version?: number): Promise<NoteRecord>;
  /** Adds an addendum to a signed note. */
  amend(accountId: string, noteId: string, addendum: { text: string; author: string }): Promise<{ note: NoteRecord; addendum: AddendumView }>;
}

export const MAX_NAME = 200;

export function signatureOf(note: NoteRecord): SignatureView {
  if (note.signedAt === null) return { status: 'draft' };
  return { status: note.addenda.length > 0 ? 'amended' : 'signed', signedBy: note.signedBy ?? '', signedAt: note.signedAt };
}

const name = (value: string, field: string): string => {
  const trimmed = value.trim();
  if (!trimmed) throw invalidRequest(`${field}: must not be empty`);
  if (trimmed.length > MAX_NAME) throw invalidRequest(`${field}: at most ${MAX_NAME} characters`);
  return trimmed;
};

/** How often a change is re-checked after another change slipped in between its read and its write. */
const RACE_RETRIES = 5;

/** The edit, sign and amend operations over the notes port. */
export function createNoteSigning(deps: { notes: NoteStore; now: () => number }): NoteSigning {
  const load = async (accountId: string, noteId: string): Promise<NoteRecord> => {
    const note = await deps.notes.get(accountId, noteId);
    if (!note) throw notFound('note');
    return note;
  };
  /**
   * Reads the note, lets `plan` check it and name its changes, and writes them only while the
   * note is still at the version read. When another change got in between, the checks run again
   * on the new state (which may now refuse: signed meanwhile, or not the caller's version).
   */
  const change = async (accountId: string, noteId: string, plan: (note: NoteRecord) => Parameters<NoteStore['update']>[1]): Promise<NoteRecord> => {
    for (let attempt = 0; ; attempt++) {
      const note = await load(accountId, noteId);
      const changes = plan(note);
      if (await deps.notes.update(noteId, { ...changes, version: note.version + 1 }, { version: note.version })) return load(accountId, noteId);
      if (attempt === RACE_RETRIES) throw new DomainError('conflict', 'note: it is being changed elsewhere; try again');
    }
  };
  const current = (note: NoteRecord, version: number | undefined): void => {
    if (version !== undefined && version !== note.version) {
      throw new DomainError('precondition_failed', `note: version ${version} is not the current version ${note.version} (changed elsewhere); read it again`);
    }
  };
  const finished = (note: NoteRecord, what: string): void => {
    if (note.status !== 'STATUS_DONE') throw new DomainError('conflict', `note: only a finished note can be ${what} (status ${note.status})`);
  };
  return {
    edit: (accountId, noteId, markdown, version) =>
      change(accountId, noteId, (note) => {
        if (note.signedAt !== null) throw new DomainError('conflict', 'note: a signed note is read-only; add an addendum instead (POST /v1/notes/{noteId}/addenda)');
        finished(note, 'edited');
        current(note, version);
        if (!markdown.trim()) throw invalidRequest('markdown: must not be empty');
        return { markdown };
      }),
    sign: (accountId, noteId, signer, version) =>
      change(accountId, noteId, (note) => {
        if (note.signedAt !== null) throw new DomainError('conflict', 'note: already signed; add an addendum instead');
        finished(note, 'signed');
        current(note, version);
        return { signedAt: deps.now(), signedBy: name(signer, 'signer') };
      }),
    async amend(accountId, noteId, input) {
      let addendum: AddendumView | undefined;
      const note = await change(accountId, noteId, (current) => {
        if (current.signedAt === null) throw new DomainError('conflict', 'note: a draft is edited, not amended; sign it first');
        if (!input.text.trim()) throw invalidRequest('text: must not be empty');
        addendum ??= { id: randomUUID(), text: input.text, author: name(input.author, 'author'), createdAt: deps.now() };
        return { addenda: [...current.addenda, addendum] };
      });
      return { note, addendum: addendum! };
    },
  };
}
