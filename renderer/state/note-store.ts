import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.js';
import type { CreateNoteRequest, NoteKind, NoteStatus, NoteView, TranscriptionRecord } from '../api/types.js';
import type { NoteTemplate } from '../../shared/note-template.js';
import type { NoteLanguage } from '../../shared/languages.js';
import type { AddendumView, SignatureView } from '../../shared/api/signing.js';
import { recordUnsureShare } from './unsure-share.js';
import { labelledTranscript } from '../../shared/speaker-roles.js';
import { carryInto, linesToCarry, upsertVersion, type CarryLine, type CarryOffer, type NoteVersion, type PreviousVersion } from './note-versions.js';
import { addToSection } from './note-sections.js';

export interface SavedStyle { name: string; template: string }

export interface NoteInputs {
  transcript: string;
  /**
   * Share of the transcript's words the recogniser was unsure of (0..1), null when unknown (typed
   * or pasted). Set with the transcript by whoever supplies it; editing the text by hand keeps it
   * (the source stays what it was), emptying the text forgets it.
   */
  transcriptUnsureShare: number | null;
  kind: NoteKind;
  /** Free-text style template (note_style). */
  styleTemplate: string;
  /** Stored NoteTemplate id (note_template). */
  templateId: string;
  language: NoteLanguage;
  patientName: string;
  dateOfBirth: string;
  date: string;
  medicationList: string;
}

export type GenerationStatus = 'idle' | 'submitting' | NoteStatus;
export type EncounterStatus = 'idle' | 'uploading' | 'pending' | 'processing' | 'completed' | 'failed';

export interface NoteState extends NoteInputs {
  status: GenerationStatus;
  noteId?: string;
  /** The note as written by the API, and as edited by the physician. */
  generated?: string;
  markdown: string;
  editing: boolean;
  error?: string;
  encounter: EncounterStatus;
  encounterError?: string;
  templates: NoteTemplate[];
  styles: SavedStyle[];
  styleStatus: 'idle' | 'working';
  styleError?: string;
  /** The note's version on the server (its ETag) and the markdown saved there. */
  version?: number;
  savedMarkdown?: string;
  /** Draft until signed; a signed note is read-only and later changes are addenda. */
  signature: SignatureView;
  addenda: AddendumView[];
  signing: 'idle' | 'saving' | 'signing' | 'amending';
  /** Encounter recordings sent for transcription in this visit. */
  recordings: { transcriptionId: string; name?: string; createdAt?: number }[];
  /** Every note of the visit, oldest first, with where it stands (signed ones stay listed and reachable). */
  versions: NoteVersion[];
  /** The physician chose "Start a new version" on a signed note: the transcript is open for a new draft. */
  newVersion: boolean;
  /** Lines of the previous version the new draft lacks, offered to the physician. */
  carry?: CarryOffer;
  /** The note's review list says it was written from a mostly unsure transcript (its `transcript` item's text). */
  sourceUnsure?: string;
  /**
   * Said but not in the note: what the writer could not place with confidence (the note's
   * `payload.json.unplaced`), for the physician to add with one press.
   */
  unplaced: { text: string; section?: string; reason: string }[];
  /** Adds one of `unplaced` to the draft under its section and saves the draft. */
  addUnplaced(text: string): Promise<void>;
  /** Changes the inputs; the transcript of a signed note stays as it is (see `locked`). */
  set(patch: Partial<NoteInputs>): void;
  /** Opens (true) or closes the inputs of a signed note for a new draft version; the signed note is kept. */
  startNewVersion(on: boolean): void;
  /** Lists the notes of the visit (`visitId`, plus the one shown) with their status. */
  refreshVersions(visitId: string | undefined): Promise<void>;
  /** Puts the chosen lines of the previous version into the new draft and saves it. */
  acceptCarry(lines: CarryLine[]): Promise<void>;
  dismissCarry(): void;
  /** Shows a stored note (reopening a visit); one still being written is followed until it is done. */
  load(noteId: string): Promise<void>;
  /** Empties the inputs and the note, for a new visit. */
  reset(): void;
  generate(): Promise<void>;
  setEditing(on: boolean): void;
  /** Edits the draft (ignored once signed). */
  setMarkdown(md: string): void;
  /**
   * Saves the edited draft on the server (PUT with If-Match); false when it could not.
   * `keepalive` lets the request finish while the page is being closed.
   */
  saveEdits(options?: { keepalive?: boolean }): Promise<boolean>;
  /** Saves any edits, then signs the note as `signer`. */
  sign(signer: string): Promise<void>;
  addAddendum(text: string, author: string): Promise<void>;
  transcribeEncounter(audio: Blob, filename: string): Promise<void>;
  loadTemplates(): Promise<void>;
  makeStyle(name: string, sampleNote: string, instructions: string[]): Promise<void>;
  deleteStyle(name: string): void;
  /** Problems that block generation, in words a physician understands; empty when ready. */
  problems(): string[];
}

export interface NoteDeps {
  client(): ApiClient | undefined;
  /** Waits between status polls; tests pass a resolved promise. */
  sleep?(ms: number): Promise<void>;
  /** Where named styles are kept (localStorage): they are instructions, not patient data. */
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  defaultLanguage?: NoteLanguage;
  pollMs?: number;
  /** Gives up polling after this long; default 10 minutes. */
  timeoutMs?: number;
  /** Speech engine for encounter uploads; '' or undefined uses the server's default. */
  speechEngine?(): string;
}

const STYLES_KEY = 'clindoc.styles';

/** A signed note and its transcript are read-only until the physician starts a new version. */
export const locked = (s: Pick<NoteState, 'signature' | 'newVersion'>): boolean => s.signature.status !== 'draft' && !s.newVersion;

/** Turns a diarized transcription into a transcript with one line per speaker turn, two speakers labelled Doctor / Patient (guessed). */
export function transcriptFromRecord(record: TranscriptionRecord): string {
  return labelledTranscript(record.utterances, record.text ?? '');
}

function countMedications(list: string): number {
  return list.split(',').map((s) => s.trim()).filter(Boolean).length;
}

/** From encounter to note: transcript (typed, dictated or transcribed), options, generation, editing. */
export function createNoteStore(deps: NoteDeps): StoreApi<NoteState> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const pollMs = deps.pollMs ?? 500;
  const timeoutMs = deps.timeoutMs ?? 600_000;
  const readStyles = (): SavedStyle[] => {
    try {
      const v = JSON.parse(deps.storage?.getItem(STYLES_KEY) ?? '[]') as SavedStyle[];
      return Array.isArray(v) ? v.filter((s) => typeof s?.name === 'string' && typeof s?.template === 'string') : [];
    } catch {
      return [];
    }
  };
  const writeStyles = (styles: SavedStyle[]): void => deps.storage?.setItem(STYLES_KEY, JSON.stringify(styles));
  let generation = 0;

  /** Polls a note until it is finished (or the store moved on to another), then shows it. */
  const follow = async (client: ApiClient, noteId: string, mine: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (mine !== generation) return;
      const note = await client.getNote(noteId);
      if (mine !== generation) return;
      if (note.status === 'STATUS_DONE') {
        const md = note.payload?.markdown ?? '';
        const versions = listedAs(noteId, note);
        const review = (note.payload?.json as { review?: { kind: string; text: string }[] } | undefined)?.review;
        const sourceUnsure = review?.find((r) => r.kind === 'transcript')?.text;
        const unplaced = (note.payload?.json as { unplaced?: NoteState['unplaced'] } | undefined)?.unplaced ?? [];
        return store.setState({ status: 'STATUS_DONE', generated: md, markdown: md, savedMarkdown: md, version: note.version, signature: note.signature, addenda: note.addenda, versions, sourceUnsure, unplaced });
      }
      if (note.status === 'STATUS_FAILED') return store.setState({ status: 'STATUS_FAILED', error: note.error?.message ?? 'The note could not be written.' });
      store.setState({ status: note.status });
      if (Date.now() > deadline) return store.setState({ status: 'STATUS_FAILED', error: 'The note is taking too long; it is still being written in the background.' });
      await sleep(pollMs);
    }
  };
  // One save at a time, so each PUT carries the version the previous one returned.
  let saving: Promise<boolean> = Promise.resolve(true);

  /** The visit's list of notes with this one as the server now holds it (status, signature). */
  const listedAs = (noteId: string, note: NoteView): NoteVersion[] =>
    upsertVersion(store.getState().versions, { noteId, status: note.status, signature: note.signature, createdAt: note.timestamp.start });

  /** Signing or amending: shown as under way until the server answered, its refusal shown as the error. */
  const signingStep = async (step: 'signing' | 'amending', work: () => Promise<Partial<NoteState>>): Promise<void> => {
    store.setState({ signing: step, error: undefined });
    try {
      store.setState(await work());
    } catch (err) {
      store.setState({ error: (err as Error).message });
    } finally {
      store.setState({ signing: 'idle' });
    }
  };

  const store = createStore<NoteState>()((set, get) => ({
    transcript: '',
    transcriptUnsureShare: null,
    kind: 'soap',
    styleTemplate: '',
    templateId: '',
    language: deps.defaultLanguage ?? 'en',
    patientName: '',
    dateOfBirth: '',
    date: '',
    medicationList: '',
    status: 'idle',
    markdown: '',
    editing: false,
    encounter: 'idle',
    templates: [],
    styles: readStyles(),
    styleStatus: 'idle',
    signature: { status: 'draft' },
    addenda: [],
    signing: 'idle',
    recordings: [],
    versions: [],
    newVersion: false,
    set: (patch) => {
      if (patch.transcript !== undefined && locked(get())) {
        // Said, not silently dropped: "Use as transcript" from Dictation lands here too.
        const { transcript, transcriptUnsureShare: _share, ...rest } = patch;
        const error = transcript === get().transcript ? get().error : 'The note is signed: its transcript stays as it is. Press “Start a new version” to write a new draft from other text.';
        return set({ ...rest, error });
      }
      set(patch.transcript !== undefined && !patch.transcript.trim() ? { ...patch, transcriptUnsureShare: null } : patch);
    },
    startNewVersion: (on) => set({ newVersion: on && get().signature.status !== 'draft', error: undefined }),
    async refreshVersions(visitId) {
      const client = deps.client();
      if (!client) return;
      try {
        const ids = visitId ? (await client.getVisit(visitId)).notes.map((n) => n.noteId) : [];
        const shown = get().noteId;
        if (shown && !ids.includes(shown)) ids.push(shown);
        const found = await Promise.all(ids.map((id) => client.getNote(id).then(
          (n): NoteVersion => ({ noteId: id, status: n.status, signature: n.signature, createdAt: n.timestamp.start }),
          () => undefined,
        )));
        set({ versions: found.filter((v): v is NoteVersion => v !== undefined) });
      } catch {
        // The list is a convenience; the visit and its notes are unchanged.
      }
    },
    async acceptCarry(lines) {
      if (get().signature.status !== 'draft' || lines.length === 0) return set({ carry: undefined });
      set({ markdown: carryInto(get().markdown, lines), carry: undefined });
      await get().saveEdits();
    },
    dismissCarry: () => set({ carry: undefined }),
    unplaced: [],
    async addUnplaced(text) {
      const item = get().unplaced.find((u) => u.text === text);
      if (!item || get().signature.status !== 'draft') return;
      set({ markdown: addToSection(get().markdown, item.text, item.section) });
      await get().saveEdits();
    },
    problems() {
      const s = get();
      const out: string[] = [];
      if (!s.transcript.trim()) out.push('Add a transcript: dictate, record the encounter or paste it.');
      if (s.kind === 'note_style' && !s.styleTemplate.trim()) out.push('Choose or write a note style.');
      if (s.kind === 'note_template' && !s.templateId) out.push('Choose a note template.');
      if (countMedications(s.medicationList) > 50) out.push('The medication list has more than 50 entries.');
      if (s.dateOfBirth && !/^\d{4}-\d{2}-\d{2}$/.test(s.dateOfBirth)) out.push('Date of birth must be a date.');
      return out;
    },
    async generate() {
      const client = deps.client();
      const problems = get().problems();
      if (!client) return set({ error: 'Connect to the local API in Settings first.' });
      if (locked(get())) return set({ error: 'This note is signed and stays as it is. Press “Start a new version” to write a new draft beside it.' });
      if (problems.length > 0) return set({ error: problems.join(' ') });
      const s = get();
      // What the physician sees now becomes the previous version; its lines the new draft lacks are offered back.
      const previous: PreviousVersion | undefined = s.noteId && s.markdown.trim()
        ? { noteId: s.noteId, markdown: s.markdown, ...(s.generated !== undefined ? { generated: s.generated } : {}), signed: s.signature.status !== 'draft', addenda: s.addenda }
        : undefined;
      const body: CreateNoteRequest = {
        transcript: s.transcript,
        language: s.language,
        noteType:
          s.kind === 'note_style' ? { type: 'note_style', template: s.styleTemplate }
          : s.kind === 'note_template' ? { type: 'note_template', templateId: s.templateId }
          : { type: 'soap' },
        ...(s.date ? { date: s.date } : {}),
        ...(s.patientName || s.dateOfBirth ? { patientInfo: { ...(s.patientName ? { name: s.patientName } : {}), ...(s.dateOfBirth ? { dateOfBirth: s.dateOfBirth } : {}) } } : {}),
        ...(s.medicationList.trim() ? { medicationList: s.medicationList.trim() } : {}),
        ...(s.transcriptUnsureShare !== null ? { transcriptUnsureShare: s.transcriptUnsureShare } : {}),
      };
      const mine = ++generation;
      set({ status: 'submitting', error: undefined, editing: false, signature: { status: 'draft' }, addenda: [], version: undefined, savedMarkdown: undefined, newVersion: false, carry: undefined, sourceUnsure: undefined, unplaced: [] });
      try {
        const { noteId } = await client.createNote(body);
        set({ noteId, status: 'STATUS_PENDING', versions: upsertVersion(get().versions, { noteId, status: 'STATUS_PENDING', signature: { status: 'draft' }, createdAt: Date.now() }) });
        await follow(client, noteId, mine);
        if (previous && mine === generation && get().status === 'STATUS_DONE') set({ carry: linesToCarry(previous, get().markdown) });
      } catch (err) {
        if (mine === generation) set({ status: 'STATUS_FAILED', error: (err as Error).message });
      }
    },
    async load(noteId) {
      const client = deps.client();
      if (!client) return;
      const mine = ++generation;
      set({ noteId, status: 'STATUS_PENDING', error: undefined, editing: false, markdown: '', generated: undefined, signature: { status: 'draft' }, addenda: [], version: undefined, savedMarkdown: undefined, newVersion: false, carry: undefined, sourceUnsure: undefined, unplaced: [] });
      try {
        await follow(client, noteId, mine);
      } catch (err) {
        if (mine === generation) set({ status: 'idle', noteId: undefined, error: (err as Error).message });
      }
    },
    reset() {
      ++generation;
      set({
        transcript: '', transcriptUnsureShare: null, patientName: '', dateOfBirth: '', date: '', medicationList: '', styleTemplate: '', templateId: '', kind: 'soap',
        status: 'idle', noteId: undefined, generated: undefined, markdown: '', savedMarkdown: undefined, version: undefined, editing: false, error: undefined,
        signature: { status: 'draft' }, addenda: [], recordings: [], encounter: 'idle', encounterError: undefined, versions: [], newVersion: false, carry: undefined, sourceUnsure: undefined, unplaced: [],
      });
    },
    setEditing: (editing) => set({ editing: editing && get().signature.status === 'draft' }),
    setMarkdown: (markdown) => {
      if (get().signature.status === 'draft') set({ markdown });
    },
    saveEdits(options) {
      const run = async (): Promise<boolean> => {
        const client = deps.client();
        const { noteId, version, markdown, savedMarkdown, signature } = get();
        if (!client || !noteId || version === undefined || signature.status !== 'draft') return false;
        if (markdown === savedMarkdown) return true;
        if (!markdown.trim()) return false;
        set({ signing: 'saving' });
        try {
          const note = await client.editNote(noteId, markdown, version, options);
          if (get().noteId === noteId) set({ version: note.version, savedMarkdown: note.payload?.markdown ?? markdown, signature: note.signature, addenda: note.addenda });
          return true;
        } catch (err) {
          const status = (err as { status?: number }).status;
          set({ error: status === 412 ? 'This note was changed in another window; reopen it to see that version before saving yours.' : (err as Error).message });
          return false;
        } finally {
          set({ signing: 'idle' });
        }
      };
      saving = saving.then(run, run);
      return saving;
    },
    async sign(signer) {
      const client = deps.client();
      const { noteId } = get();
      if (!client || !noteId) return;
      if (!signer.trim()) return set({ error: 'Type your name to sign the note.' });
      if (!(await get().saveEdits())) return;
      await signingStep('signing', async () => {
        const note = await client.signNote(noteId, signer.trim(), get().version!);
        return { version: note.version, signature: note.signature, addenda: note.addenda, editing: false, carry: undefined, versions: listedAs(noteId, note) };
      });
    },
    async addAddendum(text, author) {
      const client = deps.client();
      const { noteId } = get();
      if (!client || !noteId) return;
      if (!text.trim() || !author.trim()) return set({ error: 'An addendum needs its text and your name.' });
      await signingStep('amending', async () => {
        const addendum = await client.addAddendum(noteId, text, author.trim());
        const note = await client.getNote(noteId);
        return { addenda: note.addenda.length ? note.addenda : [...get().addenda, addendum], signature: note.signature, version: note.version, versions: listedAs(noteId, note) };
      });
    },
    async transcribeEncounter(audio, filename) {
      const client = deps.client();
      if (!client) return set({ encounterError: 'Connect to the local API in Settings first.' });
      if (locked(get())) return set({ encounterError: 'The note is signed: its transcript stays as it is. Start a new version to record again.' });
      set({ encounter: 'uploading', encounterError: undefined });
      try {
        const { id } = await client.uploadTranscription({
          audio, filename, language: get().language, diarization: true, ...(deps.speechEngine?.() ? { engine: deps.speechEngine() } : {}),
        });
        // The recording belongs to the visit from the moment it is accepted (its audio is kept).
        set({ recordings: [...get().recordings, { transcriptionId: id, name: filename, createdAt: Date.now() }] });
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const record = await client.getTranscription(id);
          if (record.status === 'completed') return set({ encounter: 'completed', transcript: transcriptFromRecord(record), transcriptUnsureShare: recordUnsureShare(record) });
          if (record.status === 'failed') return set({ encounter: 'failed', encounterError: record.error ?? 'The recording could not be transcribed.' });
          set({ encounter: record.status });
          if (Date.now() > deadline) return set({ encounter: 'failed', encounterError: 'Transcription is taking too long.' });
          await sleep(pollMs);
        }
      } catch (err) {
        set({ encounter: 'failed', encounterError: (err as Error).message });
      }
    },
    async loadTemplates() {
      const client = deps.client();
      if (!client) return;
      try {
        set({ templates: (await client.listTemplates()).items });
      } catch {
        set({ templates: [] });
      }
    },
    async makeStyle(name, sampleNote, instructions) {
      const client = deps.client();
      if (!client) return set({ styleError: 'Connect to the local API in Settings first.' });
      if (!name.trim() || !sampleNote.trim()) return set({ styleError: 'A style needs a name and a sample note.' });
      set({ styleStatus: 'working', styleError: undefined });
      try {
        const { template } = await client.createNoteStyle(sampleNote, instructions);
        const styles = [...get().styles.filter((s) => s.name !== name.trim()), { name: name.trim(), template }];
        writeStyles(styles);
        set({ styles, styleStatus: 'idle', kind: 'note_style', styleTemplate: template });
      } catch (err) {
        set({ styleStatus: 'idle', styleError: (err as Error).message });
      }
    },
    deleteStyle(name) {
      const styles = get().styles.filter((s) => s.name !== name);
      writeStyles(styles);
      set({ styles });
    },
  }));
  return store;
}
