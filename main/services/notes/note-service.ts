import { randomUUID } from 'node:crypto';
import type { DocumentStore, NoteRecord, NoteStore, Page } from '../storage.js';
import type { EngineUsed, GeneratedNote, NoteGenerationInput, NoteTypeSpec, NoteWriter } from './ports.js';

import type { CreateNoteBody } from '../../../shared/api/schemas.js';
import { DomainError, invalidRequest, notFound, isOutOfSpace } from '../errors.js';
import { validateNoteTemplate } from '../templates/template-service.js';
import { createNoteSigning, signatureOf, type AddendumView, type NoteSigning, type SignatureView } from './note-signing.js';
import { checkFidelity, fidelitySourcesOf, type FidelityFlag } from './fidelity.js';
import { unsureSourceItem } from './unsure-source.js';
import { storedStatus, type ServiceJob, type WebhookSubject } from '../background-work.js';

/**
 * The contract's note view (`GET /v1/notes/{noteId}`), plus `error` for failed notes and, as
 * extensions, the version (ETag), the signature and the addenda.
 */
export interface NoteView {
  id: string;
  status: NoteRecord['status'];
  payload?: { markdown: string; json?: Record<string, unknown>; generatedBy?: EngineUsed };
  timestamp: { start: number; complete?: number };

  error?: { message: string };
  version: number;
  signature: SignatureView;
  addenda: AddendumView[];
}

export const MAX_MEDICATIONS = 50;
export const NOTE_JOB = 'note_generation';

export interface NoteEvents {
  /**
   * Called after a note reaches a final state, and awaited; must not throw. Its webhook event is not
   * sent from here: the final write carries it into the outbox (one transaction), so a process that
   * dies before this call loses no event.
   */
  noteFinished?(note: { accountId: string; id: string; status: 'STATUS_DONE' | 'STATUS_FAILED' }): void | Promise<void>;
}

export interface NoteService extends NoteSigning {
  /**
   * Accepts a note request as the route's schema (`CreateNoteBody`) validated it: shapes, lengths
   * and date formats are the schema's; what it cannot say (a blank transcript, the medication
   * count, a template that exists) is checked here.
   */
  create(accountId: string, request: CreateNoteBody): Promise<{ noteId: string }>;
  get(accountId: string, noteId: string): Promise<NoteView>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<NoteView>>;
  delete(accountId: string, noteId: string): Promise<void>;
  /** Runs the generation job for a note (job runner entry point). */
  generate(noteId: string): Promise<void>;
  /** Marks a note failed after the job runner gave up on it. */
  fail(noteId: string, message: string): Promise<void>;
}

export function toNoteView(note: NoteRecord): NoteView {
  const view: NoteView = {
    id: note.id, status: note.status, timestamp: { start: note.createdAt }, version: note.version, signature: signatureOf(note),
    addenda: note.addenda.map((a) => ({ ...a })),
  };
  if (note.completedAt !== null) view.timestamp.complete = note.completedAt;
  if (note.status === 'STATUS_DONE' && note.markdown !== null) {
    view.payload = { markdown: note.markdown, ...(note.json ? { json: note.json } : {}), ...(note.generatedBy ? { generatedBy: { ...note.generatedBy } } : {}) };

  }
  if (note.status === 'STATUS_FAILED') view.error = { message: note.error ?? 'note generation failed' };
  return view;
}

/**
 * Statuses a job may still write over. Jobs are delivered at least once (a stalled worker and the
 * one that took its job back can run the same note together, and the runner may give up twice), so
 * every job write is conditional on these and only the write that lands announces the note.
 */
const UNFINISHED = { statusIn: ['STATUS_PENDING', 'STATUS_PROCESSING'] } as const;

/** What the note service needs. */
export interface NoteServiceDeps {
  notes: NoteStore;
  templates: DocumentStore;
  /** The note writer of an account (its chosen engine; composition's engine registry). */
  writer: (accountId: string) => Promise<NoteWriter>;
  /** Queues a job; resolves once it is stored. */
  enqueue: (kind: string, accountId: string, resourceId: string) => Promise<void>;
  events?: NoteEvents;
  now?: () => number;
}

/** Checks what the JSON schema cannot and freezes the note type (templates are copied in). */
async function resolveNoteType(templates: DocumentStore, accountId: string, noteType: CreateNoteBody['noteType']): Promise<NoteTypeSpec> {
  const type = noteType?.type ?? 'soap';
  const base = { description: noteType?.description, includeJson: noteType?.includeJson ?? false };
  if (type === 'soap') return { type, ...base };
  if (type === 'note_style') {
    if (!noteType?.template?.trim()) throw invalidRequest('noteType.template: required for noteType.type "note_style"');
    return { type, ...base, template: noteType.template };
  }
  let template: unknown = noteType?.noteTemplate;
  if (template === undefined) {
    if (!noteType?.templateId) throw invalidRequest('noteType: "note_template" needs noteTemplate or templateId');
    const stored = await templates.get(accountId, noteType.templateId);
    if (!stored) throw invalidRequest('noteType.templateId: no such note template');
    template = stored.body;
  }
  // Checked again: a stored template is read back from the database, and the schema's $ref does not check ids or depth.
  return { type, ...base, noteTemplate: validateNoteTemplate(template, 'noteType.noteTemplate') };
}

/** What the schema cannot check of a note request: a transcript of blanks, too many medications. */
function checkCreateRequest(request: CreateNoteBody): void {
  if (!request.transcript.trim()) throw invalidRequest('transcript: must not be empty');
  if (request.medicationList !== undefined) {
    const count = request.medicationList.split(',').filter((m) => m.trim()).length;
    if (count > MAX_MEDICATIONS) throw invalidRequest(`medicationList: at most ${MAX_MEDICATIONS} medications`);
  }
}

/** The stored generation input: the request's optional parts only where given, the note type resolved. */
function generationInput(request: CreateNoteBody, noteType: NoteTypeSpec): NoteGenerationInput {
  const { transcript, language = 'en', date, patientInfo, previousNote, context, instructions, medicationList, transcriptUnsureShare } = request;
  const given = { date, patientInfo, previousNote, context, instructions, medicationList, transcriptUnsureShare };
  const optional = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<typeof given>;
  return { transcript, noteType, language, ...optional };
}

/** A review-list item about the note as a whole (the engine's own notices, a fallback), placed at its start. */
const wholeNoteItem = (text: string, reason: string): FidelityFlag =>
  ({ kind: 'engine' as FidelityFlag['kind'], text, reason, action: 'marked', position: { start: 0, end: 0, line: 1 } });

/**
 * Runs the writer's answer through the fidelity check (one rule for every writer) and builds what
 * is stored: the checked markdown and the json (the full structure with includeJson, else only what
 * must reach the physician: flagged facts, untranslated passages, what was said but not placed).
 */
function checkedNote(result: GeneratedNote, input: NoteGenerationInput, today: string): { markdown: string; json: Record<string, unknown> | null } {
  const checked = checkFidelity(result, fidelitySourcesOf(input, today));
  // What the engine says of its own work comes first in the review list, then a fallback.
  for (const n of [...(result.notices ?? [])].reverse()) checked.review.unshift(wholeNoteItem(n.text, n.reason));
  // A note the embedded writer wrote because the chosen engine failed says so first in its review list.
  const fellBack = result.generatedBy?.fallbackFrom;
  if (fellBack) checked.review.unshift(wholeNoteItem(`written by the embedded writer instead of ${fellBack.model ?? fellBack.engine}`, `the chosen engine failed (${fellBack.reason})`));
  // A note written from a mostly unsure transcript says so first of all: every other check compares the note with that transcript.
  const unsure = unsureSourceItem(input.transcriptUnsureShare);
  if (unsure) checked.review.unshift(unsure);
  // What must reach the physician even without includeJson: flagged facts and passages left untranslated.
  const { untranslated, unplaced } = (checked.json ?? {}) as { untranslated?: unknown[]; unplaced?: unknown[] };
  // What was said but not placed in the note (issue 24) reaches the physician too, beside the review list.
  const notices = { ...(checked.review.length > 0 ? { review: checked.review } : {}), ...(untranslated?.length ? { untranslated } : {}), ...(unplaced?.length ? { unplaced } : {}) };
  const json = input.noteType.includeJson ? { ...(checked.json ?? {}), review: checked.review } : Object.keys(notices).length > 0 ? notices : null;
  return { markdown: checked.markdown, json };
}

/** Stores a new note and queues its job; a note whose job could not be queued is deleted again. */
async function acceptNote(deps: NoteServiceDeps, now: () => number, accountId: string, request: CreateNoteBody): Promise<{ noteId: string }> {
  checkCreateRequest(request);
  const input = generationInput(request, await resolveNoteType(deps.templates, accountId, request.noteType));
  const id = randomUUID();
  await deps.notes.insert({
    id, accountId, status: 'STATUS_PENDING', request: input, markdown: null, json: null, error: null,
    createdAt: now(), startedAt: null, completedAt: null, version: 1, signedAt: null, signedBy: null, addenda: [],
  });
  try {
    await deps.enqueue(NOTE_JOB, accountId, id);
  } catch (err) {
    // Not accepted (a full disk, say): the note goes too, so none is left without its job.
    await deps.notes.delete(accountId, id).catch(() => undefined);
    throw err;
  }
  return { noteId: id };
}

/** The generation job: writes the note with the account's writer, checks it and stores it (at most once). */
async function generateNote(deps: NoteServiceDeps, now: () => number, noteId: string, fail: (noteId: string, message: string) => Promise<void>): Promise<void> {
  const note = await deps.notes.getForJob(noteId);
  if (!note || note.status === 'STATUS_DONE' || note.status === 'STATUS_FAILED') return; // deleted or already final
  // Deleted, or finished by another run of the job, since the read.
  if (!(await deps.notes.update(noteId, { status: 'STATUS_PROCESSING', startedAt: now() }, UNFINISHED))) return;
  const input = note.request as NoteGenerationInput;
  try {
    const writer = await deps.writer(note.accountId);
    const result = await writer.write(input);
    if (typeof result.markdown !== 'string' || !result.markdown.trim()) throw new DomainError('internal', 'the note writer returned an empty note');
    const { markdown, json } = checkedNote(result, input, new Date(now()).toISOString().slice(0, 10));
    const written = await deps.notes.update(noteId, {
      status: 'STATUS_DONE', markdown, json, completedAt: now(), error: null, generatedBy: result.generatedBy ?? { engine: writer.name },
    }, UNFINISHED, { event: 'note_generation.succeeded' });
    if (!written) return; // deleted, or another run of the job wrote it first
    await deps.events?.noteFinished?.({ accountId: note.accountId, id: noteId, status: 'STATUS_DONE' });
  } catch (err) {
    // Engine outages and a full disk are retried by the job runner; anything else fails the note now.
    if ((err instanceof DomainError && err.kind === 'engine_unavailable') || isOutOfSpace(err)) throw err;
    await fail(noteId, err instanceof DomainError ? err.message : 'note generation failed');
  }
}

export function createNoteService(deps: NoteServiceDeps): NoteService {
  const now = deps.now ?? Date.now;
  const fail = async (noteId: string, message: string): Promise<void> => {
    const note = await deps.notes.getForJob(noteId);
    if (!note) return;
    // A late give-up (after a crash, or after another run succeeded) leaves a finished note as it is.
    if (!(await deps.notes.update(noteId, { status: 'STATUS_FAILED', error: message, completedAt: now() }, UNFINISHED, { event: 'note_generation.failed' }))) return;
    await deps.events?.noteFinished?.({ accountId: note.accountId, id: noteId, status: 'STATUS_FAILED' });
  };
  return {
    ...createNoteSigning({ notes: deps.notes, now }),
    create: (accountId, request) => acceptNote(deps, now, accountId, request),
    async get(accountId, noteId) {
      const note = await deps.notes.get(accountId, noteId);
      if (!note) throw notFound('note');
      return toNoteView(note);
    },
    async list(accountId, limit, cursor) {
      const page = await deps.notes.list(accountId, limit, cursor);
      return { items: page.items.map(toNoteView), nextCursor: page.nextCursor };
    },
    async delete(accountId, noteId) {
      if (!(await deps.notes.delete(accountId, noteId))) throw notFound('note');
    },
    generate: (noteId) => generateNote(deps, now, noteId, fail),
    fail,
  };
}

/** The note generation job, for the composition to register with the queue: write a note, or record that the queue gave up. */
export function noteJobs(service: Pick<NoteService, 'generate' | 'fail'>): ServiceJob[] {
  return [{ kind: NOTE_JOB, run: (id) => service.generate(id), giveUp: (id, message) => service.fail(id, message) }];
}

/** What a note's webhook events (`note_generation.*`) re-read before each attempt: its status, or nothing once deleted. */
export const noteWebhooks = (store: Pick<NoteStore, 'get'>): WebhookSubject => storedStatus(NOTE_JOB, store);
