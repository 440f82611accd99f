import type { Db } from './database.js';
import type { EngineSettingsStore } from '../services/transcriptions/engine-settings.js';

/**
 * SQLite per-account engine choices, in the `account_settings` row the retention setting also
 * uses (each upsert touches only its own column). Engine and model names are configuration, not
 * patient data, so they are stored in clear.
 */
export function createEngineSettingsStore(db: Db): EngineSettingsStore {
  const column = (name: 'asr_engine' | 'note_engine') => ({
    get: db.prepare(`SELECT ${name} AS engine FROM account_settings WHERE account_id = ?`),
    set: db.prepare(
      `INSERT INTO account_settings (account_id, ${name}) VALUES (?, ?)
       ON CONFLICT(account_id) DO UPDATE SET ${name} = excluded.${name}`,
    ),
  });
  const asr = column('asr_engine');
  const note = column('note_engine');
  const read = (q: ReturnType<typeof column>, accountId: string): string | null => (q.get.get(accountId) as { engine: string | null } | undefined)?.engine ?? null;
  return {
    getAsrEngine: async (accountId) => read(asr, accountId),
    setAsrEngine: async (accountId, engine) => void asr.set.run(accountId, engine),
    getNoteEngine: async (accountId) => read(note, accountId),
    setNoteEngine: async (accountId, engine) => void note.set.run(accountId, engine),
  };
}
