import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { DocumentStore, Page } from '../storage.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../../shared/note-template-schema.js';
import { templateProblems, type NoteTemplate } from '../../../shared/note-template.js';
import { invalidRequest, notFound, DomainError } from '../errors.js';

const ajv = new Ajv2020({ allErrors: false, strict: false });
// Compiled at the first template checked, not at import: compiling it took half a second of every start.
let check: ValidateFunction | undefined;

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
  check ??= ajv.compile(NOTE_TEMPLATE_SCHEMA);
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
  create(accountId: string, body: unknown): Promise<NoteTemplate>;
  get(accountId: string, id: string): Promise<NoteTemplate>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<NoteTemplate>>;
  replace(accountId: string, id: string, body: unknown): Promise<NoteTemplate>;
  delete(accountId: string, id: string): Promise<void>;
}

export function createTemplateService(deps: { store: DocumentStore; now?: () => number }): TemplateService {
  const now = deps.now ?? Date.now;
  return {
    async create(accountId, body) {
      const template = validateNoteTemplate(body);
      const t = now();
      // Written only if the id is free, in one step: of two racing creates, one gets the 409.
      if (!(await deps.store.put({ id: template.id, accountId, body: template, createdAt: t, updatedAt: t }, 'new'))) {
        throw new DomainError('conflict', 'id: a note template with this id already exists');
      }
      return template;
    },
    async get(accountId, id) {
      const found = await deps.store.get(accountId, id);
      if (!found) throw notFound('note template');
      return found.body as NoteTemplate;
    },
    async list(accountId, limit, cursor) {
      const page = await deps.store.list(accountId, limit, cursor);
      return { items: page.items.map((r) => r.body as NoteTemplate), nextCursor: page.nextCursor };
    },
    async replace(accountId, id, body) {
      if (!(await deps.store.get(accountId, id))) throw notFound('note template');
      const template = validateNoteTemplate(body);
      if (template.id !== id) throw invalidRequest('template.id: must match the id in the path');
      const t = now();
      // Only over a template that still exists (one deleted meanwhile is not brought back); it keeps its createdAt.
      if (!(await deps.store.put({ id, accountId, body: template, createdAt: t, updatedAt: t }, 'existing'))) throw notFound('note template');
      return template;
    },
    async delete(accountId, id) {
      if (!(await deps.store.delete(accountId, id))) throw notFound('note template');
    },
  };
}
