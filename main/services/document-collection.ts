/**
 * An account's collection of JSON documents under ids it chooses (saved macros, note templates):
 * create (409 when the id is taken), read, page, replace and delete. Every write is one
 * conditional store write, so two racing requests cannot both succeed.
 */
import { DomainError, invalidRequest, notFound } from './errors.js';
import type { DocumentStore, Page } from './storage.js';

export interface DocumentCollection<T, In = T> {
  create(accountId: string, body: In): Promise<T>;
  get(accountId: string, id: string): Promise<T>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<T>>;
  replace(accountId: string, id: string, body: In): Promise<T>;
  delete(accountId: string, id: string): Promise<void>;
}

/** What a collection needs to know of its documents. */
export interface DocumentKind<T, In> {
  /** How messages name one document: `macro`, `note template`. */
  noun: string;
  /** Where a message points for the document's own id: `id`, `template.id`. */
  idField: string;
  /** Checks and normalises a body; throws a 400 naming the problem. */
  accept(body: In): T;
}

export function createDocumentCollection<T extends { id: string }, In = T>(
  deps: { store: DocumentStore; now?: () => number }, kind: DocumentKind<T, In>,
): DocumentCollection<T, In> {
  const now = deps.now ?? Date.now;
  const { store } = deps;
  const { noun } = kind;
  return {
    async create(accountId, body) {
      const value = kind.accept(body);
      const t = now();
      // Written only if the id is free, in one step: of two racing creates, one gets the 409.
      if (!(await store.put({ id: value.id, accountId, body: value, createdAt: t, updatedAt: t }, 'new'))) {
        throw new DomainError('conflict', `id: a ${noun} with this id already exists`);
      }
      return value;
    },
    async get(accountId, id) {
      const found = await store.get(accountId, id);
      if (!found) throw notFound(noun);
      return found.body as T;
    },
    async list(accountId, limit, cursor) {
      const page = await store.list(accountId, limit, cursor);
      return { items: page.items.map((r) => r.body as T), nextCursor: page.nextCursor };
    },
    async replace(accountId, id, body) {
      if (!(await store.get(accountId, id))) throw notFound(noun);
      const value = kind.accept(body);
      if (value.id !== id) throw invalidRequest(`${kind.idField}: must match the id in the path`);
      const t = now();
      // Only over a document that still exists (one deleted meanwhile is not brought back); it keeps its createdAt.
      if (!(await store.put({ id, accountId, body: value, createdAt: t, updatedAt: t }, 'existing'))) throw notFound(noun);
      return value;
    },
    async delete(accountId, id) {
      if (!(await store.delete(accountId, id))) throw notFound(noun);
    },
  };
}
