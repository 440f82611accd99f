import type { EngineSettingsStore } from '../../services/transcriptions/engine-settings.js';
import type { Sql } from './sql.js';

/**
 * PostgreSQL per-account engine choices, in the `account_settings` row the retention setting also
 * uses (each upsert touches only its own column). Engine names are configuration, kept in clear.
 */
export function createPgEngineSettingsStore(sql: Sql): EngineSettingsStore {
  // `column` is one of two fixed names, never caller input.
  const read = async (column: 'asr_engine' | 'note_engine', accountId: string): Promise<string | null> =>
    (await sql.query<{ engine: string | null }>(`SELECT ${column} AS engine FROM account_settings WHERE account_id = $1`, [accountId])).rows[0]?.engine ?? null;
  const write = async (column: 'asr_engine' | 'note_engine', accountId: string, engine: string | null): Promise<void> => {
    await sql.query(
      `INSERT INTO account_settings (account_id, ${column}) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET ${column} = EXCLUDED.${column}`,
      [accountId, engine],
    );
  };
  return {
    getAsrEngine: (accountId) => read('asr_engine', accountId),
    setAsrEngine: (accountId, engine) => write('asr_engine', accountId, engine),
    getNoteEngine: (accountId) => read('note_engine', accountId),
    setNoteEngine: (accountId, engine) => write('note_engine', accountId, engine),
  };
}
