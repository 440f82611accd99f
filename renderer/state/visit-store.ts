import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError, type ApiClient } from '../api/client.js';
import type { VisitBody, VisitSummary, VisitView } from '../../shared/api/visits.js';
import type { NoteLanguage } from '../../shared/languages.js';
import type { NoteKind } from '../api/types.js';
import * as docs from './dictation-doc.js';
import type { DictationState } from './dictation-store.js';
import type { NoteState } from './note-store.js';

/** A code accepted for the visit, as the visit stores it. */
export type VisitCode = NonNullable<VisitBody['codes']>[number];

export type SaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'conflict' | 'error';

export interface VisitState {
  /** The visit everything typed and dictated is saved into; none until there is something to save. */
  currentId?: string;
  version?: number;
  save: SaveStatus;
  saveError?: string;
  items: VisitSummary[];
  query: string;
  /** The date of birth the list is filtered by (YYYY-MM-DD), '' for none. */
  dateOfBirth: string;
  /**
   * Whether the open visit still asks who the patient is: a new visit does, until the physician
   * names the patient or skips; a reopened visit does not.
   */
  askPatient: boolean;
  /** Names the open visit's patient and encounter date (saved with the visit) and stops asking. */
  setPatient(patient: { name: string; dateOfBirth: string; encounterDate: string }): void;
  /** Goes on without naming the patient; the header keeps an "Add patient" button. */
  skipPatient(): void;
  nextCursor: string | null;
  listing: 'idle' | 'loading';
  listError?: string;
  /** Codes the physician accepted for the open visit (saved with it, like everything else). */
  codes: VisitCode[];
  /** Suggestions the physician rejected for the open visit, kept so a reload does not offer them again. */
  rejectedCodes: VisitCode[];
  /** Replaces the accepted and rejected codes and saves the visit now. */
  setCodeDecisions(codes: VisitCode[], rejectedCodes: VisitCode[]): Promise<void>;
  /** Reopens the visit this browser was working on (after a reload, a crash or a quit). */
  restore(): Promise<void>;
  /** Saves the current visit, then shows `id` in Dictation and Note. */
  open(id: string): Promise<void>;
  /** Saves the current visit, then empties Dictation and Note for the next patient. */
  startNew(): Promise<void>;
  remove(id: string): Promise<void>;
  /** Lists the visits matching `query` (words) and, when given, `dateOfBirth` (YYYY-MM-DD; '' clears it). */
  search(query: string, dateOfBirth?: string): Promise<void>;
  more(): Promise<void>;
  /** Saves now what is waiting for the autosave delay. `keepalive`: the page is being hidden or closed. */
  flush(options?: { keepalive?: boolean }): Promise<void>;
  /** After a conflict: show the version saved in the other window (this window's unsaved changes are dropped). */
  keepTheirs(): Promise<void>;
  /** After a conflict: save this window's version over the other one. */
  keepMine(): Promise<void>;
}

export interface VisitDeps {
  client(): ApiClient | undefined;
  dictation: StoreApi<DictationState>;
  notes: StoreApi<NoteState>;
  /** Where the open visit's id is kept across reloads (localStorage; an id, never patient data). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem'>>;
  /** Quiet time after the last change before it is saved; default 800 ms. */
  debounceMs?: number;
}

const CURRENT_KEY = 'clindoc.visit';
/** Set when the physician chose "Skip for now" for the new visit: a reload before it is saved does not ask again. */
const SKIPPED_KEY = 'clindoc.visit.patientSkipped';
/** A keepalive request may carry at most 64 KiB; the marks are dropped before the text is. */
const KEEPALIVE_BYTES = 60_000;

type NoteRef = { noteId: string; version: number };

/** The visit's content as the stores hold it now (the code decisions live in the visit store itself). */
function snapshot(d: DictationState, n: NoteState, refs: NoteRef[]): Required<Omit<VisitBody, 'codes' | 'rejectedCodes'>> {
  const notes = [...refs];
  if (n.noteId) {
    const at = notes.findIndex((r) => r.noteId === n.noteId);
    const version = Math.max(n.version ?? 1, at >= 0 ? notes[at]!.version : 1);
    if (at >= 0) notes[at] = { noteId: n.noteId, version };
    else notes.push({ noteId: n.noteId, version });
  }
  return {
    patient: { ...(n.patientName ? { name: n.patientName } : {}), ...(n.dateOfBirth ? { dateOfBirth: n.dateOfBirth } : {}) },
    encounterDate: n.date,
    dictation: { text: docs.docText(d.doc), pieces: d.doc.pieces as unknown as Record<string, unknown>[] },
    transcript: n.transcript,
    transcriptUnsureShare: n.transcriptUnsureShare,
    noteOptions: { kind: n.kind, language: n.language, styleTemplate: n.styleTemplate, templateId: n.templateId, medicationList: n.medicationList },
    recordings: n.recordings,
    notes,
  };
}

const isEmpty = (s: ReturnType<typeof snapshot>): boolean =>
  !s.dictation.text.trim() && !s.transcript.trim() && !s.patient.name && !s.patient.dateOfBirth && !s.encounterDate && s.notes.length === 0 && s.recordings.length === 0;

const isPiece = (p: unknown): p is docs.DocPiece => {
  const x = p as Record<string, unknown>;
  if (!x || typeof x.id !== 'number' || typeof x.utterance !== 'number') return false;
  if (x.kind === 'text') return typeof x.text === 'string';
  return x.kind === 'macro' && typeof x.macroId === 'string' && typeof x.original === 'string' && typeof x.tail === 'string' &&
    typeof x.expansion === 'string' && typeof x.undone === 'boolean' && typeof x.confidence === 'number';
};

/** The dictation document of a saved visit: its marks when they still add up to its text, else the text. */
export function restoredDoc(saved: VisitView['dictation']): docs.DictationDoc {
  const pieces = (saved.pieces ?? []).filter(isPiece);
  if (pieces.length === 0 || pieces.length !== saved.pieces?.length || pieces.map(docs.shownText).join('') !== saved.text) return docs.docFromText(saved.text);
  const end = saved.text.length;
  const nextId = Math.max(...pieces.flatMap((p) => [p.id, p.utterance])) + 1;
  return { ...docs.emptyDoc(), pieces, nextId, selection: { start: end, end } };
}

/**
 * The open visit and the visits list. Everything the physician dictates or types is saved into
 * the open visit a moment after it changes (PATCH with the version last saved, so a change
 * from another window is a conflict shown to the physician, never overwritten), and at once when
 * the page is hidden or closed. A reload reopens the visit where it was left.
 */
export function createVisitStore(deps: VisitDeps): StoreApi<VisitState> {
  const debounceMs = deps.debounceMs ?? 800;
  let refs: NoteRef[] = [];
  let lastSaved = '';
  let hydrating = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inflight: Promise<void> | undefined;

  const current = (): ReturnType<typeof snapshot> & Pick<VisitBody, 'codes' | 'rejectedCodes'> =>
    ({ ...snapshot(deps.dictation.getState(), deps.notes.getState(), refs), codes: store.getState().codes, rejectedCodes: store.getState().rejectedCodes });
  const forget = (key: string): void => {
    if (deps.storage?.removeItem) deps.storage.removeItem(key);
    else deps.storage?.setItem(key, '');
  };
  const remember = (id: string | undefined): void => {
    if (id) deps.storage?.setItem(CURRENT_KEY, id);
    else forget(CURRENT_KEY);
  };

  const schedule = (): void => {
    if (hydrating || store.getState().save === 'conflict') return;
    if (timer) clearTimeout(timer);
    if (store.getState().save !== 'saving') store.setState({ save: 'pending' });
    timer = setTimeout(() => void store.getState().flush(), debounceMs);
  };

  const save = async (keepalive: boolean): Promise<void> => {
    const client = deps.client();
    const state = store.getState();
    if (!client || state.save === 'conflict') return;
    const n = deps.notes.getState();
    // A draft's edits are saved on the note itself, which moves its version.
    if (n.noteId && n.signature.status === 'draft' && n.version !== undefined && n.markdown !== n.savedMarkdown) await n.saveEdits({ keepalive });
    let body: VisitBody = current();
    const json = JSON.stringify(body);
    if (json === lastSaved) {
      store.setState({ save: state.currentId ? 'saved' : 'idle' });
      return;
    }
    if (keepalive && json.length > KEEPALIVE_BYTES) body = { ...body, dictation: { text: body.dictation!.text } };
    store.setState({ save: 'saving', saveError: undefined });
    try {
      if (!state.currentId) {
        if (isEmpty(body as ReturnType<typeof snapshot>)) return store.setState({ save: 'idle' });
        const created = await client.createVisit(body);
        remember(created.id);
        refs = created.notes;
        store.setState({ currentId: created.id, version: created.version });
      } else {
        const saved = await client.updateVisit(state.currentId, body, state.version!, { keepalive });
        refs = saved.notes;
        store.setState({ version: saved.version });
      }
      lastSaved = json;
      // Changes made while this save was on its way are saved next.
      store.setState({ save: JSON.stringify(current()) === lastSaved ? 'saved' : 'pending' });
      if (store.getState().save === 'pending') schedule();
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 412) {
        store.setState({ save: 'conflict', saveError: 'This visit was changed in another window. Choose which version to keep.' });
      } else if (status === 404 && state.currentId) {
        // Deleted elsewhere: what is on screen is saved as a new visit.
        remember(undefined);
        lastSaved = '';
        store.setState({ currentId: undefined, version: undefined, save: 'pending' });
        schedule();
      } else {
        store.setState({ save: 'error', saveError: `Not saved: ${(err as Error).message}` });
        timer = setTimeout(() => void store.getState().flush(), 5_000);
      }
    }
  };

  /** Puts a saved visit into Dictation and Note without saving it back. */
  const hydrate = (visit: VisitView): void => {
    hydrating = true;
    try {
      refs = visit.notes;
      if (deps.dictation.getState().status !== 'idle') void deps.dictation.getState().stop().catch(() => undefined);
      deps.dictation.setState({ doc: restoredDoc(visit.dictation), partial: '' });
      const o = visit.noteOptions;
      const notes = deps.notes.getState();
      notes.reset();
      notes.set({
        transcript: visit.transcript, transcriptUnsureShare: visit.transcriptUnsureShare ?? null, patientName: visit.patient.name ?? '', dateOfBirth: visit.patient.dateOfBirth ?? '', date: visit.encounterDate,
        ...(o.kind ? { kind: o.kind as NoteKind } : {}), ...(o.language ? { language: o.language as NoteLanguage } : {}),
        styleTemplate: o.styleTemplate ?? '', templateId: o.templateId ?? '', medicationList: o.medicationList ?? '',
      });
      deps.notes.setState({ recordings: visit.recordings });
      const last = visit.notes[visit.notes.length - 1];
      if (last) void deps.notes.getState().load(last.noteId);
      remember(visit.id);
      store.setState({ currentId: visit.id, version: visit.version, codes: visit.codes ?? [], rejectedCodes: visit.rejectedCodes ?? [], save: 'saved', saveError: undefined, askPatient: false });
      lastSaved = JSON.stringify(current());
    } finally {
      hydrating = false;
    }
  };

  const emptyStores = (): void => {
    hydrating = true;
    try {
      refs = [];
      deps.dictation.getState().clear();
      deps.notes.getState().reset();
      remember(undefined);
      forget(SKIPPED_KEY);
      lastSaved = '';
      store.setState({ currentId: undefined, version: undefined, codes: [], rejectedCodes: [], save: 'idle', saveError: undefined, askPatient: true });
    } finally {
      hydrating = false;
    }
  };

  const list = async (append: boolean): Promise<void> => {
    const client = deps.client();
    if (!client) return;
    const { query, nextCursor, dateOfBirth } = store.getState();
    store.setState({ listing: 'loading', listError: undefined });
    try {
      const page = await client.listVisits(query, append ? (nextCursor ?? undefined) : undefined, dateOfBirth || undefined);
      store.setState((s) => ({ items: append ? [...s.items, ...page.items] : page.items, nextCursor: page.nextCursor, listing: 'idle' }));
    } catch (err) {
      store.setState({ listing: 'idle', listError: (err as Error).message });
    }
  };

  const store = createStore<VisitState>()((set, get) => ({
    save: 'idle',
    items: [],
    query: '',
    dateOfBirth: '',
    nextCursor: null,
    listing: 'idle',
    codes: [],
    rejectedCodes: [],
    // A first start, or a browser whose last visit was closed, begins with the patient.
    askPatient: !deps.storage?.getItem(CURRENT_KEY) && !deps.storage?.getItem(SKIPPED_KEY),
    setPatient({ name, dateOfBirth, encounterDate }) {
      deps.notes.getState().set({ patientName: name.trim(), dateOfBirth, date: encounterDate });
      set({ askPatient: false });
    },
    skipPatient: () => {
      deps.storage?.setItem(SKIPPED_KEY, '1');
      set({ askPatient: false });
    },
    async setCodeDecisions(codes, rejectedCodes) {
      set({ codes, rejectedCodes });
      await get().flush();
    },
    async restore() {
      const client = deps.client();
      const id = deps.storage?.getItem(CURRENT_KEY);
      if (!client || !id || get().currentId === id) return;
      try {
        hydrate(await client.getVisit(id));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          remember(undefined);
          set({ askPatient: true });
        }
        else set({ save: 'error', saveError: `The open visit could not be loaded: ${(err as Error).message}` });
      }
    },
    async open(id) {
      const client = deps.client();
      if (!client) return;
      await get().flush();
      if (get().save === 'conflict') return;
      hydrate(await client.getVisit(id));
    },
    async startNew() {
      await get().flush();
      if (get().save === 'conflict') return;
      emptyStores();
    },
    async remove(id) {
      const client = deps.client();
      if (!client) return;
      try {
        await client.deleteVisit(id);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) return set({ listError: (err as Error).message });
      }
      if (get().currentId === id) {
        if (timer) clearTimeout(timer);
        emptyStores();
      }
      set((s) => ({ items: s.items.filter((v) => v.id !== id) }));
    },
    async search(query, dateOfBirth) {
      set({ query, ...(dateOfBirth !== undefined ? { dateOfBirth } : {}) });
      await list(false);
    },
    more: () => list(true),
    flush(options) {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const keepalive = options?.keepalive ?? false;
      // One save at a time: each PATCH carries the version the previous one returned.
      const run = (): Promise<void> => save(keepalive);
      const tracked: Promise<void> = (inflight ?? Promise.resolve()).then(run, run).finally(() => {
        if (inflight === tracked) inflight = undefined;
      });
      inflight = tracked;
      return tracked;
    },
    async keepTheirs() {
      const { currentId } = get();
      const client = deps.client();
      if (!client || !currentId) return;
      hydrate(await client.getVisit(currentId));
    },
    async keepMine() {
      const { currentId } = get();
      const client = deps.client();
      if (!client || !currentId) return;
      const theirs = await client.getVisit(currentId);
      lastSaved = '';
      set({ version: theirs.version, save: 'pending', saveError: undefined });
      await get().flush();
    },
  }));

  deps.dictation.subscribe((s, prev) => {
    if (s.doc !== prev.doc) schedule();
  });
  deps.notes.subscribe((s, prev) => {
    // Every note shown in this visit stays in it: one replaced on screen (a new version, an older
    // one reopened) before the autosave ran would otherwise drop out of the visit's notes.
    if (!hydrating && s.noteId !== prev.noteId) {
      for (const n of [prev, s]) {
        if (!n.noteId) continue;
        const at = refs.findIndex((r) => r.noteId === n.noteId);
        const version = Math.max(n.version ?? 1, at >= 0 ? refs[at]!.version : 1);
        refs = at >= 0 ? refs.map((r, i) => (i === at ? { noteId: r.noteId, version } : r)) : [...refs, { noteId: n.noteId, version }];
      }
    }
    const changed = s.transcript !== prev.transcript || s.transcriptUnsureShare !== prev.transcriptUnsureShare || s.patientName !== prev.patientName || s.dateOfBirth !== prev.dateOfBirth || s.date !== prev.date ||
      s.kind !== prev.kind || s.language !== prev.language || s.styleTemplate !== prev.styleTemplate || s.templateId !== prev.templateId ||
      s.medicationList !== prev.medicationList || s.recordings !== prev.recordings || s.noteId !== prev.noteId || s.version !== prev.version ||
      s.markdown !== prev.markdown;
    if (changed) schedule();
  });
  return store;
}
