/**
 * Visits: one patient encounter and everything documented for it (dictation, recordings and their
 * transcriptions, the transcript, notes with their versions, patient details, accepted codes).
 * The interface autosaves into the open visit; every change names the version it was made on,
 * so two windows on one visit cannot overwrite each other without knowing (412).
 *
 * Search decision: the content is sealed at rest, so the service searches by opening the
 * account's own visits, newest first, and matching in memory. A keyed search index (HMACs of
 * words) would leak which visits share words and only find whole words; a physician's visits
 * number in the thousands, which open in milliseconds. Patient data never leaves the account's
 * rows and never enters an index.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '../storage.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';
import type { VisitContent, VisitLinks, VisitNoteState, VisitRecord, VisitStore } from './ports.js';
import { matchesFilter, preview, queryWords, type VisitFilter } from './visit-search.js';

/** A visit as the API answers it; a visit saved before the unsure share existed answers null (unknown). */
export type VisitView = Omit<VisitRecord, 'accountId' | 'content'> & Omit<VisitContent, 'transcriptUnsureShare' | 'rejectedCodes'>
  & { transcriptUnsureShare: number | null; rejectedCodes: NonNullable<VisitContent['rejectedCodes']> };

/** A visit in a list. */
export interface VisitSummary {
  id: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  patient: VisitContent['patient'];
  encounterDate: string;
  preview: string;
  notes: number;
  recordings: number;
  /** The newest note of the visit and where it stands; null without one (or when it was deleted). */
  latestNote: ({ noteId: string } & VisitNoteState) | null;
  /** How many of the visit's notes are signed (or amended). */
  signedNotes: number;
}

export type VisitPatch = Partial<VisitContent>;

export interface VisitService {
  create(accountId: string, body: VisitPatch): Promise<VisitView>;
  get(accountId: string, id: string): Promise<VisitView>;
  /**
   * Newest first; with `q`, only visits whose patient name, dictation or transcript has every word;
   * with `dateOfBirth` (YYYY-MM-DD), only visits of a patient born that day.
   */
  list(accountId: string, options: { limit: number; cursor?: string; q?: string; dateOfBirth?: string }): Promise<Page<VisitSummary>>;
  /** Applies `patch` (each field replaces that field) to the visit at `version`. */
  update(accountId: string, id: string, patch: VisitPatch, version: number): Promise<VisitView>;
  delete(accountId: string, id: string): Promise<void>;
}

const EMPTY: VisitContent = { patient: {}, encounterDate: '', dictation: { text: '' }, transcript: '', transcriptUnsureShare: null, noteOptions: {}, recordings: [], notes: [], codes: [], rejectedCodes: [] };
const FIELDS = Object.keys(EMPTY) as (keyof VisitContent)[];
/** Visits opened per step of a search. */
const SCAN_BATCH = 100;

// A visit saved before the unsure share existed reads as unknown (null); before rejections were kept, as none.
const view = (r: VisitRecord): VisitView => ({
  id: r.id, version: r.version, createdAt: r.createdAt, updatedAt: r.updatedAt, ...r.content,
  transcriptUnsureShare: r.content.transcriptUnsureShare ?? null, rejectedCodes: r.content.rejectedCodes ?? [],
});

const SIGNED = new Set(['signed', 'amended']);

/** Search cursor: the store's cursor of a page and how many of its visits were already looked at. */
function encodeSearchCursor(c: string | null, skip: number): string {
  return Buffer.from(JSON.stringify({ c, s: skip })).toString('base64url');
}
function decodeSearchCursor(cursor: string): { c: string | undefined; s: number } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; s?: unknown };
    if ((typeof v.c === 'string' || v.c === null) && Number.isInteger(v.s) && (v.s as number) >= 0) return { c: (v.c as string | null) ?? undefined, s: v.s as number };
  } catch {
    // fall through
  }
  throw invalidRequest('cursor: not a cursor returned by this API');
}

export function createVisitService(deps: { store: VisitStore; links: VisitLinks; now?: () => number }): VisitService {
  const now = deps.now ?? Date.now;

  /** A visit in a list, with where its notes stand (read from the notes themselves, so a note signed through the API shows too). */
  const summary = async (r: VisitRecord): Promise<VisitSummary> => {
    const states = await Promise.all(r.content.notes.map(async (n) => ({ noteId: n.noteId, state: await deps.links.noteState(r.accountId, n.noteId) })));
    const present = states.filter((s): s is { noteId: string; state: VisitNoteState } => s.state !== undefined);
    const latest = present.at(-1);
    return {
      id: r.id, version: r.version, createdAt: r.createdAt, updatedAt: r.updatedAt, patient: r.content.patient, encounterDate: r.content.encounterDate,
      preview: preview(r.content), notes: r.content.notes.length, recordings: r.content.recordings.length,
      latestNote: latest ? { noteId: latest.noteId, ...latest.state } : null,
      signedNotes: present.filter((s) => SIGNED.has(s.state.status)).length,
    };
  };

  /** Links added by this change must be the account's own; ones already saved are kept as they are. */
  const checkLinks = async (accountId: string, patch: VisitPatch, before: VisitContent): Promise<void> => {
    // One at a time and in order, so the first bad link named is the same as before.
    const knownNotes = new Set(before.notes.map((n) => n.noteId));
    for (const [i, n] of (patch.notes ?? []).entries()) {
      if (!knownNotes.has(n.noteId) && !(await deps.links.note(accountId, n.noteId))) throw invalidRequest(`notes[${i}].noteId: no such note`);
    }
    const knownRecordings = new Set(before.recordings.map((r) => r.transcriptionId));
    for (const [i, r] of (patch.recordings ?? []).entries()) {
      if (!knownRecordings.has(r.transcriptionId) && !(await deps.links.transcription(accountId, r.transcriptionId))) {
        throw invalidRequest(`recordings[${i}].transcriptionId: no such transcription`);
      }
    }
  };

  /**
   * A signed note stays in its visit: a change whose `notes` leaves one out is refused (409), so a
   * signed document is always reachable from the visit it documents. Drafts may be dropped.
   */
  const keepSigned = async (accountId: string, patch: VisitPatch, before: VisitContent): Promise<void> => {
    if (!patch.notes) return;
    const kept = new Set(patch.notes.map((n) => n.noteId));
    for (const n of before.notes) {
      if (kept.has(n.noteId)) continue;
      const state = await deps.links.noteState(accountId, n.noteId);
      if (state?.status === 'signed' || state?.status === 'amended') {
        throw new DomainError('conflict', `notes: signed note ${n.noteId} stays in its visit; send it in notes`);
      }
    }
  };

  const merge = (before: VisitContent, patch: VisitPatch): VisitContent => {
    const next: Record<string, unknown> = { ...before };
    for (const field of FIELDS) if (patch[field] !== undefined) next[field] = patch[field];
    return next as unknown as VisitContent;
  };

  const load = async (accountId: string, id: string): Promise<VisitRecord> => {
    const found = await deps.store.get(accountId, id);
    if (!found) throw notFound('visit');
    return found;
  };

  const stale = (current: number, version: number): DomainError =>
    new DomainError('precondition_failed', `visit: version ${version} is not the current version ${current} (changed in another window); read it again`);

  return {
    async create(accountId, body) {
      await checkLinks(accountId, body, EMPTY);
      const t = now();
      const record: VisitRecord = { id: randomUUID(), accountId, createdAt: t, updatedAt: t, version: 1, content: merge(EMPTY, body) };
      await deps.store.insert(record);
      return view(record);
    },
    get: async (accountId, id) => view(await load(accountId, id)),
    async list(accountId, { limit, cursor, q, dateOfBirth }) {
      const filter: VisitFilter = { words: q === undefined ? [] : queryWords(q), ...(dateOfBirth ? { dateOfBirth } : {}) };
      if (filter.words.length === 0 && !filter.dateOfBirth) {
        const page = await deps.store.list(accountId, limit, cursor);
        return { items: await Promise.all(page.items.map(summary)), nextCursor: page.nextCursor };
      }
      let { c, s } = cursor ? decodeSearchCursor(cursor) : { c: undefined as string | undefined, s: 0 };
      const found: VisitRecord[] = [];
      const done = async (nextCursor: string | null): Promise<Page<VisitSummary>> => ({ items: await Promise.all(found.map(summary)), nextCursor });
      for (;;) {
        const page = await deps.store.list(accountId, SCAN_BATCH, c);
        for (let i = s; i < page.items.length; i++) {
          if (!matchesFilter(page.items[i]!.content, filter)) continue;
          found.push(page.items[i]!);
          if (found.length === limit) {
            return done(i + 1 < page.items.length ? encodeSearchCursor(c ?? null, i + 1) : page.nextCursor ? encodeSearchCursor(page.nextCursor, 0) : null);
          }
        }
        if (!page.nextCursor) return done(null);
        c = page.nextCursor;
        s = 0;
      }
    },
    async update(accountId, id, patch, version) {
      const before = await load(accountId, id);
      if (before.version !== version) throw stale(before.version, version);
      await checkLinks(accountId, patch, before.content);
      await keepSigned(accountId, patch, before.content);
      const content = merge(before.content, patch);
      const t = Math.max(now(), before.updatedAt);
      if (!(await deps.store.update(accountId, id, version, content, t))) throw stale((await load(accountId, id)).version, version);
      return view({ ...before, content, version: version + 1, updatedAt: t });
    },
    async delete(accountId, id) {
      if (!(await deps.store.delete(accountId, id))) throw notFound('visit');
    },
  };
}
