import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { DocumentStore } from '../storage.js';
import { createDocumentCollection, type DocumentCollection } from '../document-collection.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../../shared/note-template-schema.js';
import { templateProblems, type NoteTemplate } from '../../../shared/note-template.js';
import { invalidRequest } from '../errors.js';

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

/** An account's note templates: create (409 when the id is taken), read, page, replace, delete. */
export type TemplateService = DocumentCollection<NoteTemplate, unknown>;

export function createTemplateService(deps: { store: DocumentStore; now?: () => number }): TemplateService {
  return createDocumentCollection<NoteTemplate, unknown>(deps, { noun: 'note template', idField: 'template.id', accept: (body) => validateNoteTemplate(body) });
}
