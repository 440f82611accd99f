import type { DocumentStore, Page } from '../storage.js';
import type { MacroDefinition } from '../../../shared/api/schemas.js';
import { invalidRequest, notFound, DomainError } from '../errors.js';

/** A physician's saved macro: the detect endpoint's macro definition (the API schema's type). */
export type SavedMacro = MacroDefinition;

export interface MacroLibraryService {
  list(accountId: string, limit: number, cursor?: string): Promise<Page<SavedMacro>>;
  get(accountId: string, id: string): Promise<SavedMacro>;
  create(accountId: string, macro: SavedMacro): Promise<SavedMacro>;
  replace(accountId: string, id: string, macro: SavedMacro): Promise<SavedMacro>;
  delete(accountId: string, id: string): Promise<void>;
}

function clean(macro: SavedMacro): SavedMacro {
  const examples = macro.examples.map((e) => e.trim()).filter(Boolean);
  if (!examples.length) throw invalidRequest('examples: at least one non-empty example is required');
  if (!macro.id.trim()) throw invalidRequest('id: must not be empty');
  return { id: macro.id.trim(), examples, expansion_text: macro.expansion_text, ...(macro.trigger === 'insert' ? { trigger: 'insert' as const } : {}) };
}

/** The macro library stored per account (an extension recorded in the OpenAPI document). */
export function createMacroLibraryService(deps: { store: DocumentStore; now?: () => number }): MacroLibraryService {
  const now = deps.now ?? Date.now;
  return {
    async list(accountId, limit, cursor) {
      const page = await deps.store.list(accountId, limit, cursor);
      return { items: page.items.map((r) => r.body as SavedMacro), nextCursor: page.nextCursor };
    },
    async get(accountId, id) {
      const found = await deps.store.get(accountId, id);
      if (!found) throw notFound('macro');
      return found.body as SavedMacro;
    },
    async create(accountId, macro) {
      const value = clean(macro);
      const t = now();
      // Written only if the id is free, in one step: of two racing creates, one gets the 409.
      if (!(await deps.store.put({ id: value.id, accountId, body: value, createdAt: t, updatedAt: t }, 'new'))) {
        throw new DomainError('conflict', 'id: a macro with this id already exists');
      }
      return value;
    },
    async replace(accountId, id, macro) {
      if (!(await deps.store.get(accountId, id))) throw notFound('macro');
      const value = clean(macro);
      if (value.id !== id) throw invalidRequest('id: must match the id in the path');
      const t = now();
      // Only over a macro that still exists (one deleted meanwhile is not brought back); it keeps its createdAt.
      if (!(await deps.store.put({ id, accountId, body: value, createdAt: t, updatedAt: t }, 'existing'))) throw notFound('macro');
      return value;
    },
    async delete(accountId, id) {
      if (!(await deps.store.delete(accountId, id))) throw notFound('macro');
    },
  };
}
