import type { Page } from '../storage.js';
import type { AccountUsage, StorageUsageReader } from './ports.js';

/** A resource the account owns that can be listed page by page and deleted by id. */
export interface OwnedResource {
  list(accountId: string, limit: number, cursor?: string): Promise<Page<{ id: string }>>;
  delete(accountId: string, id: string): Promise<unknown>;
}

export interface StorageUsageDeps {
  reader: StorageUsageReader;
  notes: OwnedResource;
  transcriptions: OwnedResource;
  templates: OwnedResource;
  macros: OwnedResource;
  visits: OwnedResource;
  webhooks: { list(accountId: string): Promise<{ id: string }[]>; delete(accountId: string, id: string): Promise<unknown> };
  /** The account's voice adaptation (enrollment recordings and adapted model), erased with the rest. */
  voice?: { deleteAll(accountId: string): Promise<void> };
}

/** The storage summary the API answers with. */
export interface StorageReport extends AccountUsage {
  totalBytes: number;
}

/** How many objects of each kind a deletion removed. */
export interface DeletedCounts {
  notes: number;
  transcriptions: number;
  templates: number;
  macros: number;
  webhooks: number;
  visits: number;
}

export interface StorageUsageService {
  usage(accountId: string): Promise<StorageReport>;
  /**
   * Deletes every visit, note, transcription (with its audio), note template, saved macro and webhook
   * of the account. The audit trail is kept: it records that the deletion happened.
   */
  deleteAll(accountId: string): Promise<DeletedCounts>;
}

const PAGE = 100;

/**
 * Storage usage and "delete all data" for one account. Deletion goes through each resource's own
 * service, so it does exactly what deleting one object does (audio files removed, pending jobs
 * find their object gone) and can only ever reach the caller's account.
 */
export function createStorageUsageService(deps: StorageUsageDeps): StorageUsageService {
  const drain = async (resource: OwnedResource, accountId: string): Promise<number> => {
    let deleted = 0;
    // Always read the first page again: deleting shifts the cursor's ground.
    for (;;) {
      const { items } = await resource.list(accountId, PAGE);
      if (items.length === 0) return deleted;
      for (const item of items) {
        await resource.delete(accountId, item.id);
        deleted++;
      }
    }
  };
  return {
    async usage(accountId) {
      const u = await deps.reader.usage(accountId);
      const totalBytes = u.notes.bytes + u.transcriptions.bytes + u.audio.bytes + u.templates.bytes + u.macros.bytes + u.webhooks.bytes + u.visits.bytes;
      return { ...u, totalBytes };
    },
    async deleteAll(accountId) {
      const hooks = await deps.webhooks.list(accountId);
      for (const h of hooks) await deps.webhooks.delete(accountId, h.id);
      // One kind after another, in the order the synchronous version used.
      const notes = await drain(deps.notes, accountId);
      const transcriptions = await drain(deps.transcriptions, accountId);
      const templates = await drain(deps.templates, accountId);
      const macros = await drain(deps.macros, accountId);
      const visits = await drain(deps.visits, accountId);
      await deps.voice?.deleteAll(accountId);
      return { notes, transcriptions, templates, macros, webhooks: hooks.length, visits };
    },
  };
}
