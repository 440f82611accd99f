import type { ApiClient } from '../api/client.js';
import type { Page } from '../api/types.js';

export interface DataCounts { notes: number; transcriptions: number; macros: number; templates: number; webhooks: number }

async function all<T>(list: (cursor?: string) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

/** How many of each stored object the account has. */
export async function countData(client: ApiClient): Promise<DataCounts> {
  const [notes, transcriptions, macros, templates, webhooks] = await Promise.all([
    all((c) => client.listNotes(c)),
    all((c) => client.listTranscriptions(c)),
    all((c) => client.listMacros(c)),
    all((c) => client.listTemplates(c)),
    client.listWebhooks(),
  ]);
  return { notes: notes.length, transcriptions: transcriptions.length, macros: macros.length, templates: templates.length, webhooks: webhooks.length };
}

/**
 * Deletes every note, transcription (with its audio), macro, template and webhook of the account
 * through the public API, reporting progress. Returns what was deleted.
 */
export async function deleteAllData(client: ApiClient, onProgress: (done: number, total: number) => void = () => undefined): Promise<DataCounts> {
  const notes = await all((c) => client.listNotes(c));
  const transcriptions = await all((c) => client.listTranscriptions(c));
  const macros = await all((c) => client.listMacros(c));
  const templates = await all((c) => client.listTemplates(c));
  const webhooks = await client.listWebhooks();
  const jobs: (() => Promise<void>)[] = [
    ...notes.map((n) => () => client.deleteNote(n.id)),
    ...transcriptions.map((t) => () => client.deleteTranscription(t.id)),
    ...macros.map((m) => () => client.deleteMacro(m.id)),
    ...templates.map((t) => () => client.deleteTemplate(t.id)),
    ...webhooks.map((w) => () => client.deleteWebhook(w.id)),
  ];
  let done = 0;
  onProgress(0, jobs.length);
  for (const job of jobs) {
    await job();
    onProgress(++done, jobs.length);
  }
  return { notes: notes.length, transcriptions: transcriptions.length, macros: macros.length, templates: templates.length, webhooks: webhooks.length };
}
