import type { DocumentStore } from '../storage.js';
import { createDocumentCollection, type DocumentCollection } from '../document-collection.js';
import type { MacroDefinition } from '../../../shared/api/schemas.js';
import { invalidRequest } from '../errors.js';

/** A physician's saved macro: the detect endpoint's macro definition (the API schema's type). */
export type SavedMacro = MacroDefinition;

/** The saved macros of an account: create (409 when the id is taken), read, page, replace, delete. */
export type MacroLibraryService = DocumentCollection<SavedMacro>;

function clean(macro: SavedMacro): SavedMacro {
  const examples = macro.examples.map((e) => e.trim()).filter(Boolean);
  if (!examples.length) throw invalidRequest('examples: at least one non-empty example is required');
  if (!macro.id.trim()) throw invalidRequest('id: must not be empty');
  return { id: macro.id.trim(), examples, expansion_text: macro.expansion_text, ...(macro.trigger === 'insert' ? { trigger: 'insert' as const } : {}) };
}

/** The macro library stored per account (an extension recorded in the OpenAPI document). */
export function createMacroLibraryService(deps: { store: DocumentStore; now?: () => number }): MacroLibraryService {
  return createDocumentCollection<SavedMacro>(deps, { noun: 'macro', idField: 'id', accept: clean });
}
