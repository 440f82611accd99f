import type { RouteRegistry } from '../route-registry.js';
import { toNoteView, type NoteService } from '../../services/notes/note-service.js';
import type { StyleService } from '../../services/notes/style-service.js';
import { CreateNoteBody, IdParam, NoteCreated, NoteStyleBody, NoteStyleResult, NoteView, PageQuery, pageOf } from '../schemas.js';
import { AddendumBody, AddendumView, IfMatchHeader, NoteEditBody, SignBody } from '../../../shared/api/signing.js';
import { ifMatchVersion, setEtag } from '../preconditions.js';
import { textWork } from './text-work.js';

/** Notes (create, get, list, delete) and note styles. */
export function registerNoteRoutes(registry: RouteRegistry, deps: { notes: NoteService; styles: StyleService }): void {
  registry.add(
    {
      method: 'post', path: '/v1/notes', operationId: 'createNote', tags: ['Notes'],
      summary: 'Create a clinical note from a transcript',
      description: 'Accepted at once (202); the note is written by a durable background job. Poll GET /v1/notes/{noteId}.',
      body: CreateNoteBody, envelope: 'standard',
      success: { status: 202, description: 'Note accepted for generation', schema: NoteCreated },
      errors: [400, 413, 415],
    },
    ({ principal, body }) => deps.notes.create(principal.accountId, body),
  );
  registry.add(
    {
      method: 'get', path: '/v1/notes', operationId: 'listNotes', tags: ['Notes'],
      summary: "List the account's notes, newest first", query: PageQuery, envelope: 'standard',
      success: { status: 200, description: 'A page of notes', schema: pageOf(NoteView) }, errors: [400],
    },
    ({ principal, query }) => deps.notes.list(principal.accountId, query.limit ?? 20, query.cursor),
  );
  registry.add(
    {
      method: 'get', path: '/v1/notes/:noteId', operationId: 'getNote', tags: ['Notes'], summary: 'Get a note',
      params: IdParam('noteId'), envelope: 'standard', success: { status: 200, description: 'The note', schema: NoteView }, errors: [404],
    },
    async ({ principal, params, res }) => {
      const note = await deps.notes.get(principal.accountId, params.noteId);
      setEtag(res, note.version);
      return note;
    },
  );
  registry.add(
    {
      method: 'put', path: '/v1/notes/:noteId', operationId: 'editNote', tags: ['Notes'], summary: 'Edit a draft note',
      description: 'Replaces the markdown of a finished, unsigned note (a draft). A signed note is read-only: 409, add an addendum instead. ' +
        'If-Match must name the current version (ETag); the version goes up by one.',
      params: IdParam('noteId'), headers: [IfMatchHeader], body: NoteEditBody, envelope: 'standard',
      success: { status: 200, description: 'The edited note', schema: NoteView, etag: true }, errors: [400, 404, 409, 412, 415, 428],
    },
    async ({ principal, params, body, req, res }) => {
      const note = await deps.notes.edit(principal.accountId, params.noteId, body.markdown, ifMatchVersion(req, true));
      setEtag(res, note.version);
      return toNoteView(note);
    },
  );
  registry.add(
    {
      method: 'post', path: '/v1/notes/:noteId/sign', operationId: 'signNote', tags: ['Notes'], summary: 'Sign a draft note',
      description: 'The note becomes read-only (`signature.status` `signed`; FHIR docStatus `final`). The signer\'s name and the time are kept on the note ' +
        'and in the audit trail. If-Match, when sent, must name the current version, so the version signed is the one the clinician read.',
      params: IdParam('noteId'), headers: [{ ...IfMatchHeader, required: false }], body: SignBody, envelope: 'standard',
      success: { status: 200, description: 'The signed note', schema: NoteView, etag: true }, errors: [400, 404, 409, 412, 415],
    },
    async ({ principal, params, body, req, res }) => {
      const note = await deps.notes.sign(principal.accountId, params.noteId, body.signer, ifMatchVersion(req, false));
      res.locals.auditSigner = note.signedBy;
      setEtag(res, note.version);
      return toNoteView(note);
    },
  );
  registry.add(
    {
      method: 'post', path: '/v1/notes/:noteId/addenda', operationId: 'addNoteAddendum', tags: ['Notes'], summary: 'Add an addendum to a signed note',
      description: 'Later changes to a signed note. The note becomes `amended` (FHIR docStatus `amended`); its signed text is unchanged. The author and time are in the audit trail.',
      params: IdParam('noteId'), body: AddendumBody, envelope: 'standard',
      success: { status: 201, description: 'The addendum', schema: AddendumView, etag: true }, errors: [400, 404, 409, 415],
    },
    async ({ principal, params, body, res }) => {
      const { note, addendum } = await deps.notes.amend(principal.accountId, params.noteId, { text: body.text, author: body.author });
      res.locals.auditSigner = addendum.author;
      setEtag(res, note.version);
      return addendum;
    },
  );
  registry.add(
    {
      method: 'delete', path: '/v1/notes/:noteId', operationId: 'deleteNote', tags: ['Notes'], summary: 'Delete a note',
      params: IdParam('noteId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
    },
    ({ principal, params }) => deps.notes.delete(principal.accountId, params.noteId),
  );
  registry.add(
    {
      ...textWork(NoteStyleBody), path: '/v1/note-styles', operationId: 'createNoteStyle', tags: ['Note styles'],
      summary: 'Create a note-style template from a sample note',
      description: 'Returns a template text; pass it back as noteType.template with noteType.type "note_style".',
      envelope: 'standard', success: { status: 200, description: 'The template', schema: NoteStyleResult },
    },
    async ({ principal, body }) => ({ template: await deps.styles.createTemplate(body.sampleNote, body.instructions ?? [], principal.accountId) }),
  );
}
