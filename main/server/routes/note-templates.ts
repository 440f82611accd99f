import type { RouteRegistry } from '../route-registry.js';
import type { TemplateService } from '../../services/templates/template-service.js';
import { NoteTemplateSchema } from '../schemas.js';
import { registerCollectionRoutes } from './collection.js';

/** Stored NoteTemplate objects (API-DECISIONS "Note templates"). */
export function registerTemplateRoutes(registry: RouteRegistry, deps: { templates: TemplateService }): void {
  registerCollectionRoutes(registry, {
    path: '/v1/note-templates', idName: 'templateId', tags: ['Note templates'], schema: NoteTemplateSchema, bodyErrors: [413],
    name: 'NoteTemplate', noun: 'note template', short: 'template',
    create: {
      summary: 'Store a note template', answer: 'Stored',
      description: 'Validated against the NoteTemplate model: heading depth at most 2, level 0-6, unique section ids, list_type on lists. An existing id is a 409.',
    },
  }, deps.templates);
}
