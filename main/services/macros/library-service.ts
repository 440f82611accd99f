import type { DocumentStore, Page } from '../storage.js';
import { invalidRequest, notFound, DomainError } from '../errors.js';

/** A physician's saved macro (same shape as the detect endpoint's macro definitions). */
export interface SavedMacro {
  id: string;
  examples: string[];
  expansion_text: string;
  /** `insert`: fires only when commanded (see MacroDefinition). */
  trigger?: 'auto' | 'insert';
}

export interface MacroLibraryService {
  list(accountId: string, limit: number, cursor?: string): Page<SavedMacro>;
  get(accountId: string, id: string): SavedMacro;
  create(accountId: string, macro: SavedMacro): SavedMacro;
  replace(accountId: string, id: string, macro: SavedMacro): SavedMacro;
  delete(accountId: string, id: string): void;
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
    list(accountId, limit, cursor) {
      const page = deps.store.list(accountId, limit, cursor);
      return { items: page.items.map((r) => r.body as SavedMacro), nextCursor: page.nextCursor };
    },
    get(accountId, id) {
      const found = deps.store.get(accountId, id);
      if (!found) throw notFound('macro');
      return found.body as SavedMacro;
    },
    create(accountId, macro) {
      const value = clean(macro);
      if (deps.store.get(accountId, value.id)) throw new DomainError('conflict', 'id: a macro with this id already exists');
      const t = now();
      deps.store.put({ id: value.id, accountId, body: value, createdAt: t, updatedAt: t });
      return value;
    },
    replace(accountId, id, macro) {
      const existing = deps.store.get(accountId, id);
      if (!existing) throw notFound('macro');
      const value = clean(macro);
      if (value.id !== id) throw invalidRequest('id: must match the id in the path');
      deps.store.put({ id, accountId, body: value, createdAt: existing.createdAt, updatedAt: now() });
      return value;
    },
    delete(accountId, id) {
      if (!deps.store.delete(accountId, id)) throw notFound('macro');
    },
  };
}
