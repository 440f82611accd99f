import type { ApiClient } from '../api/client.js';
import type { DeletedCounts, StorageReport } from '../api/types.js';

export type { DeletedCounts, StorageReport };

/** "1.2 MB": bytes in the units people read. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What is stored, in a sentence: "3 notes, 1 transcription (2 audio files, 1.2 MB), …". */
export function describeUsage(u: StorageReport): string {
  return [
    ...(u.visits?.count ? [plural(u.visits.count, 'visit')] : []),
    plural(u.notes.count, 'note'),
    `${plural(u.transcriptions.count, 'transcription')} (${plural(u.audio.count, 'audio file')}, ${formatBytes(u.audio.bytes)})`,
    plural(u.macros.count, 'macro'),
    plural(u.templates.count, 'template'),
    plural(u.webhooks.count, 'webhook'),
  ].join(', ');
}

/** What a deletion removed, in a sentence. */
export function describeDeleted(d: DeletedCounts): string {
  return [...(d.visits ? [plural(d.visits, 'visit')] : []), plural(d.notes, 'note'), plural(d.transcriptions, 'transcription'), plural(d.macros, 'macro'), plural(d.templates, 'template'), plural(d.webhooks, 'webhook')].join(', ');
}

/** The account's storage: counts and bytes by kind (`GET /v1/storage`). */
export function storageUsage(client: ApiClient): Promise<StorageReport> {
  return client.storageUsage();
}

/**
 * Deletes every visit, note, transcription (with its audio), macro, template and webhook of the account
 * in one request (`DELETE /v1/storage?confirm=all`); the server keeps the audit trail.
 */
export function deleteAllData(client: ApiClient): Promise<DeletedCounts> {
  return client.deleteAllStorage();
}
