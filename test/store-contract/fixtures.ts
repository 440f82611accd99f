import { afterAll, beforeAll } from 'vitest';
import type { NoteRecord, TranscriptionRecord } from '../../main/services/storage.js';
import type { VisitContent } from '../../main/services/visits/ports.js';
import type { StoreBackend } from './backend.js';

/** Made-up patient text: it must never be found in a stored column. */
export const MARKER = 'ZEBRAFISHQUOKKA';

/** Opens something for the enclosing describe and closes it after; the getter reads it inside tests. */
export function forSuite<T>(open: () => Promise<T>, close: (opened: T) => Promise<void>, what: string): () => T {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    if (opened !== undefined) await close(opened);
  });
  return () => {
    if (opened === undefined) throw new Error(`${what} not open`);
    return opened;
  };
}

/** Opens a backend for the enclosing describe and closes it after; `get()` reads it inside tests. */
export function useBackend(open: () => Promise<StoreBackend>): () => StoreBackend {
  return forSuite(open, (backend) => backend.close(), 'backend');
}

let counter = 0;
/** Creates an account with a unique id and returns the id. */
export async function newAccount(b: StoreBackend, createdAt = 1_700_000_000_000): Promise<string> {
  const id = `acct_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  await b.stores.accounts.createAccount({ id, name: `Clinic ${counter}`, createdAt });
  return id;
}

export const note = (id: string, accountId: string, createdAt: number, extra: Partial<NoteRecord> = {}): NoteRecord => ({
  id, accountId, status: 'STATUS_DONE', request: { transcript: `${MARKER} said the patient` }, markdown: `# ${MARKER}`, json: { plan: MARKER },
  error: null, createdAt, startedAt: createdAt + 1, completedAt: createdAt + 2, version: 1, signedAt: null, signedBy: null, addenda: [], ...extra,
});

export const transcription = (id: string, accountId: string, createdAt: number, extra: Partial<TranscriptionRecord> = {}): TranscriptionRecord => ({
  id, accountId, status: 'completed', options: { language: 'en', prompt: MARKER }, audioBlob: null, audioType: null,
  result: { text: `${MARKER} transcript` }, error: null, createdAt, updatedAt: createdAt, startedAt: null, completedAt: null, ...extra,
});

export const visitContent = (text: string): VisitContent => ({
  patient: { name: `${MARKER} Patient`, dateOfBirth: '1950-01-01' },
  encounterDate: '2026-11-25',
  dictation: { text },
  transcript: `${MARKER} transcript`,
  noteOptions: { kind: 'soap' },
  recordings: [],
  notes: [],
  codes: [],
});

/** Every id of every page, following cursors. */
export async function allPages<T extends { id: string }>(
  list: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>,
): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await list(cursor);
    pages.push(page.items.map((x) => x.id));
    if (!page.nextCursor) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}
