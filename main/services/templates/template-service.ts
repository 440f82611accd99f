import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { DocumentStore, Page } from '../storage.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../../shared/note-template-schema.js';
import { templateProblems, type NoteTemplate } from '../../../shared/note-template.js';
import { invalidRequest, notFound, DomainError } from '../errors.js';

const ajv = new Ajv2020({ allErrors: false, strict: false });
const check = ajv.compile(NOTE_TEMPLATE_SCHEMA);

function describe(error: ErrorObject, root: string): string {
  const path = `${root}${error.instancePath.replace(/\//g, '.').replace(/\.(\d+)/g, '[$1]')}`;
  if (error.keyword === 'required') return `${path}.${String(error.params.missingProperty)}: is required`;
  return `${path}: ${error.message ?? 'is invalid'}`;
}

/**
 * Validates a NoteTemplate against the contract's model: types, enums, required fields,
 * heading depth at most 2, levels 0 to 6, unique section ids, `list_type` on lists.
 * Throws 400 naming the first problem; returns the template typed.
 */
export function validateNoteTemplate(value: unknown, root = 'template'): NoteTemplate {
  if (!check(value)) {
    const first = (check.errors ?? []).find((e) => e.keyword !== 'if');
    throw invalidRequest(first ? describe(first, root) : `${root}: is not a valid NoteTemplate`);
  }
  const template = value as unknown as NoteTemplate;
  const problems = templateProblems(template);
  if (problems.length) throw invalidRequest(`${root}.${problems[0]}`);
  return template;
}

export interface TemplateService {
  create(accountId: string, body: unknown): NoteTemplate;
  get(accountId: string, id: string): NoteTemplate;
  list(accountId: string, limit: number, cursor?: string): Page<NoteTemplate>;
  replace(accountId: string, id: string, body: unknown): NoteTemplate;
  delete(accountId: string, id: string): void;
}

export function createTemplateService(deps: { store: DocumentStore; now?: () => number }): TemplateService {
  const now = deps.now ?? Date.now;
  return {
    create(accountId, body) {
      const template = validateNoteTemplate(body);
      if (deps.store.get(accountId, template.id)) throw new DomainError('conflict', 'id: a note template with this id already exists');
      const t = now();
      deps.store.put({ id: template.id, accountId, body: template, createdAt: t, updatedAt: t });
      return template;
    },
    get(accountId, id) {
      const found = deps.store.get(accountId, id);
      if (!found) throw notFound('note template');
      return found.body as NoteTemplate;
    },
    list(accountId, limit, cursor) {
      const page = deps.store.list(accountId, limit, cursor);
      return { items: page.items.map((r) => r.body as NoteTemplate), nextCursor: page.nextCursor };
    },
    replace(accountId, id, body) {
      const existing = deps.store.get(accountId, id);
      if (!existing) throw notFound('note template');
      const template = validateNoteTemplate(body);
      if (template.id !== id) throw invalidRequest('template.id: must match the id in the path');
      deps.store.put({ id, accountId, body: template, createdAt: existing.createdAt, updatedAt: now() });
      return template;
    },
    delete(accountId, id) {
      if (!deps.store.delete(accountId, id)) throw notFound('note template');
    },
  };
}
