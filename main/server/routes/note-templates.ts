import type { RouteRegistry } from '../route-registry.js';
import type { TemplateService } from '../../services/templates/template-service.js';
import { IdParam, NoteTemplateSchema, PageQuery, pageOf } from '../schemas.js';

/** Stored NoteTemplate objects (API-DECISIONS "Note templates"). */
export function registerTemplateRoutes(registry: RouteRegistry, deps: { templates: TemplateService }): void {
  const tags = ['Note templates'];
  registry.add(
    {
      method: 'post', path: '/v1/note-templates', operationId: 'createNoteTemplate', tags, summary: 'Store a note template',
      description: 'Validated against the NoteTemplate model: heading depth at most 2, level 0-6, unique section ids, list_type on lists. An existing id is a 409.',
      body: NoteTemplateSchema, envelope: 'standard',
      success: { status: 201, description: 'Stored', schema: NoteTemplateSchema }, errors: [400, 409, 413, 415],
    },
    ({ principal, body }) => deps.templates.create(principal.accountId, body),
  );
  registry.add(
    {
      method: 'get', path: '/v1/note-templates', operationId: 'listNoteTemplates', tags, summary: 'List note templates, newest first',
      query: PageQuery, envelope: 'standard', success: { status: 200, description: 'A page of templates', schema: pageOf(NoteTemplateSchema) }, errors: [400],
    },
    ({ principal, query }) => deps.templates.list(principal.accountId, query.limit ?? 20, query.cursor),
  );
  registry.add(
    {
      method: 'get', path: '/v1/note-templates/:templateId', operationId: 'getNoteTemplate', tags, summary: 'Get a note template',
      params: IdParam('templateId'), envelope: 'standard', success: { status: 200, description: 'The template', schema: NoteTemplateSchema }, errors: [404],
    },
    ({ principal, params }) => deps.templates.get(principal.accountId, params.templateId),
  );
  registry.add(
    {
      method: 'put', path: '/v1/note-templates/:templateId', operationId: 'replaceNoteTemplate', tags, summary: 'Replace a note template',
      params: IdParam('templateId'), body: NoteTemplateSchema, envelope: 'standard',
      success: { status: 200, description: 'Replaced', schema: NoteTemplateSchema }, errors: [400, 404, 413, 415],
    },
    ({ principal, params, body }) => deps.templates.replace(principal.accountId, params.templateId, body),
  );
  registry.add(
    {
      method: 'delete', path: '/v1/note-templates/:templateId', operationId: 'deleteNoteTemplate', tags, summary: 'Delete a note template',
      params: IdParam('templateId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
    },
    ({ principal, params }) => deps.templates.delete(principal.accountId, params.templateId),
  );
}
