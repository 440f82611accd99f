import type { EngineFailurePolicy, EngineServers, EngineSettingsStore } from '../../services/transcriptions/engine-settings.js';
import type { FieldCipher } from '../crypto/field-cipher.js';
import { serversContext } from '../engine-settings-store.js';
import type { Sql } from './sql.js';

type Column = 'asr_engine' | 'note_engine' | 'engine_failure' | 'engine_servers';

/**
 * PostgreSQL per-account engine choices, in the `account_settings` row the retention setting also
 * uses (each upsert touches only its own column). Engine names are configuration, kept in clear;
 * an account's servers (addresses and keys) are sealed as in SQLite.
 */
export function createPgEngineSettingsStore(sql: Sql, cipher?: FieldCipher): EngineSettingsStore {
  // `column` is one of four fixed names, never caller input.
  const read = async (column: Column, accountId: string): Promise<string | null> =>
    (await sql.query<{ value: string | null }>(`SELECT ${column} AS value FROM account_settings WHERE account_id = $1`, [accountId])).rows[0]?.value ?? null;
  const write = async (column: Column, accountId: string, value: string | null): Promise<void> => {
    await sql.query(
      `INSERT INTO account_settings (account_id, ${column}) VALUES ($1, $2)
       ON CONFLICT (account_id) DO UPDATE SET ${column} = EXCLUDED.${column}`,
      [accountId, value],
    );
  };
  return {
    getAsrEngine: (accountId) => read('asr_engine', accountId),
    setAsrEngine: (accountId, engine) => write('asr_engine', accountId, engine),
    getNoteEngine: (accountId) => read('note_engine', accountId),
    setNoteEngine: (accountId, engine) => write('note_engine', accountId, engine),
    getFailurePolicy: async (accountId) => (await read('engine_failure', accountId)) as EngineFailurePolicy | null,
    setFailurePolicy: (accountId, policy) => write('engine_failure', accountId, policy),
    getServers: async (accountId) => {
      const stored = await read('engine_servers', accountId);
      if (stored === null) return null;
      return JSON.parse(cipher ? cipher.open(stored, serversContext(accountId)) : stored) as EngineServers;
    },
    setServers: async (accountId, value) => {
      const json = value === null ? null : JSON.stringify(value);
      await write('engine_servers', accountId, json === null || !cipher ? json : cipher.seal(json, serversContext(accountId)));
    },
  };
}
