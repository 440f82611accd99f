import type { Page } from '../storage.js';

/** What a visit holds. Patient data throughout: stored encrypted, never logged. */
export interface VisitContent {
  patient: { name?: string; dateOfBirth?: string };
  encounterDate: string;
  dictation: { text: string; pieces?: Record<string, unknown>[] };
  transcript: string;
  /** Share of the transcript's words the recogniser was unsure of (0..1); null when unknown. Absent in visits saved before issue 27. */
  transcriptUnsureShare?: number | null;
  noteOptions: { kind?: string; language?: string; styleTemplate?: string; templateId?: string; medicationList?: string };
  recordings: { transcriptionId: string; name?: string; createdAt?: number }[];
  notes: { noteId: string; version: number }[];
  codes: { system: string; code: string; display?: string }[];
  /** Suggestions the physician rejected. Absent in visits saved before issue 27's point 10. */
  rejectedCodes?: { system: string; code: string; display?: string }[];
}

export interface VisitRecord {
  id: string;
  accountId: string;
  createdAt: number;
  updatedAt: number;
  /** Starts at 1 and goes up with every change: the ETag. */
  version: number;
  content: VisitContent;
}

/** Storage of visits, scoped by account. `main/store/visit-store.ts` keeps the content sealed. */
export interface VisitStore {
  insert(visit: VisitRecord): Promise<void>;
  get(accountId: string, id: string): Promise<VisitRecord | undefined>;
  /** Newest first (created), cursor paging. */
  list(accountId: string, limit: number, cursor?: string): Promise<Page<VisitRecord>>;
  /**
   * Replaces the content and bumps the version, only while the stored version is `expected`
   * (one conditional write, so a change that raced another loses cleanly). False otherwise.
   */
  update(accountId: string, id: string, expected: number, content: VisitContent, updatedAt: number): Promise<boolean>;
  delete(accountId: string, id: string): Promise<boolean>;
}

/** Where a note a visit links to stands, for the visits list (no content). */
export interface VisitNoteState {
  /** `pending`/`failed` while it is not written; then `draft` until signed, `signed`, `amended` once it has an addendum. */
  status: 'pending' | 'failed' | 'draft' | 'signed' | 'amended';
  /** When it was signed, else when it was written (else created): milliseconds since the Unix epoch. */
  at: number;
}

/** Whether an id a visit links to is one of the account's own objects. */
export interface VisitLinks {
  note(accountId: string, noteId: string): Promise<boolean>;
  transcription(accountId: string, transcriptionId: string): Promise<boolean>;
  /** The note's state for the list; undefined when it was deleted since. */
  noteState(accountId: string, noteId: string): Promise<VisitNoteState | undefined>;
}
