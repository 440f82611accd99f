import type { RouteRegistry } from '../route-registry.js';
import type { NoteService, CreateNoteRequest } from '../../services/notes/note-service.js';
import type { StyleService } from '../../services/notes/style-service.js';
import { CreateNoteBody, IdParam, NoteCreated, NoteStyleBody, NoteStyleResult, NoteView, PageQuery, pageOf } from '../schemas.js';

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
    ({ principal, body }) => deps.notes.create(principal.accountId, body as CreateNoteRequest),
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
    ({ principal, params }) => deps.notes.get(principal.accountId, params.noteId),
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
      method: 'post', path: '/v1/note-styles', operationId: 'createNoteStyle', tags: ['Note styles'],
      summary: 'Create a note-style template from a sample note',
      description: 'Returns a template text; pass it back as noteType.template with noteType.type "note_style".',
      body: NoteStyleBody, envelope: 'standard',
      success: { status: 200, description: 'The template', schema: NoteStyleResult }, errors: [400, 413, 415, 503],
    },
    async ({ body }) => ({ template: await deps.styles.createTemplate(body.sampleNote as string, (body.instructions as string[] | undefined) ?? []) }),
  );
}
