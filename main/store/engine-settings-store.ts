import type { Db } from './database.js';
import type { EngineSettingsStore } from '../services/transcriptions/engine-settings.js';

/**
 * SQLite per-account engine choice, in the `account_settings` row the retention setting also
 * uses (each upsert touches only its own column). An engine name is configuration, not patient
 * data, so it is stored in clear.
 */
export function createEngineSettingsStore(db: Db): EngineSettingsStore {
  const get = db.prepare('SELECT asr_engine AS engine FROM account_settings WHERE account_id = ?');
  const set = db.prepare(
    `INSERT INTO account_settings (account_id, asr_engine) VALUES (?, ?)
     ON CONFLICT(account_id) DO UPDATE SET asr_engine = excluded.asr_engine`,
  );
  return {
    getAsrEngine: (accountId) => (get.get(accountId) as { engine: string | null } | undefined)?.engine ?? null,
    setAsrEngine: (accountId, engine) => void set.run(accountId, engine),
  };
}
