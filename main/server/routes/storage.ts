import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import type { StorageUsageService } from '../../services/storage-usage/storage-usage-service.js';

const Usage = Type.Object({ count: Type.Integer({ minimum: 0 }), bytes: Type.Integer({ minimum: 0 }) });
const StorageReport = Type.Object(
  {
    notes: Usage, transcriptions: Usage, audio: Usage, templates: Usage, macros: Usage, webhooks: Usage,
    totalBytes: Type.Integer({ minimum: 0, description: 'Sum of the bytes above.' }),
  },
  { description: "The account's stored objects and the bytes they take (database rows as stored, encrypted where sealed, plus audio files)." },
);
const DeletedCounts = Type.Object({
  notes: Type.Integer({ minimum: 0 }), transcriptions: Type.Integer({ minimum: 0 }), templates: Type.Integer({ minimum: 0 }),
  macros: Type.Integer({ minimum: 0 }), webhooks: Type.Integer({ minimum: 0 }),
});

/** The account's storage: usage, and deleting all of its data (extension: `/v1/storage`). */
export function registerStorageRoutes(registry: RouteRegistry, deps: { storage: StorageUsageService }): void {
  const tags = ['Storage'];
  registry.add(
    {
      method: 'get', path: '/v1/storage', operationId: 'getStorageUsage', tags, summary: "How much data the account stores",
      envelope: 'standard', success: { status: 200, description: 'Counts and bytes by kind', schema: StorageReport }, errors: [],
    },
    ({ principal }) => deps.storage.usage(principal.accountId),
  );
  registry.add(
    {
      method: 'delete', path: '/v1/storage', operationId: 'deleteAllData', tags, summary: "Delete all of the account's data",
      description:
        'Deletes every note, transcription with its audio, note template, saved macro and webhook of the account. The audit trail is kept. ' +
        'The query parameter `confirm=all` is required so that no stray request erases everything.',
      query: Type.Object({ confirm: Type.Literal('all') }), envelope: 'standard',
      success: { status: 200, description: 'What was deleted', schema: DeletedCounts }, errors: [400],
    },
    ({ principal }) => deps.storage.deleteAll(principal.accountId),
  );
}
