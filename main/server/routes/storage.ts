import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import { DeletedCounts, StorageReport } from '../schemas.js';
import { registerAccountRead } from './account-read.js';
import type { StorageUsageService } from '../../services/storage-usage/storage-usage-service.js';

/** The account's storage: usage, and deleting all of its data (extension: `/v1/storage`). */
export function registerStorageRoutes(registry: RouteRegistry, deps: { storage: StorageUsageService }): void {
  const tags = ['Storage'];
  registerAccountRead(registry, {
    path: '/v1/storage', operationId: 'getStorageUsage', tags, summary: 'How much data the account stores', schema: StorageReport, answer: 'Counts and bytes by kind',
  }, (accountId) => deps.storage.usage(accountId));
  registry.add(
    {
      method: 'delete', path: '/v1/storage', operationId: 'deleteAllData', tags, summary: "Delete all of the account's data",
      description:
        'Deletes every note, transcription with its audio, note template, saved macro, webhook and visit of the account, and its voice adaptation (recordings and adapted model). The audit trail is kept. ' +
        'The query parameter `confirm=all` is required so that no stray request erases everything.',
      query: Type.Object({ confirm: Type.Literal('all') }), envelope: 'standard',
      success: { status: 200, description: 'What was deleted', schema: DeletedCounts }, errors: [400],
    },
    ({ principal }) => deps.storage.deleteAll(principal.accountId),
  );
}
