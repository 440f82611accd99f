import type { Db } from './database.js';
import type { EngineFailurePolicy, EngineServers, EngineSettingsStore } from '../services/transcriptions/engine-settings.js';
import type { FieldCipher } from './crypto/field-cipher.js';

/** Sealing context of an account's servers (their keys are secrets): the account id is part of it. */
export const serversContext = (accountId: string): string => `account_settings.engine_servers:${accountId}`;

/**
 * SQLite per-account engine choices, in the `account_settings` row the retention setting also
 * uses (each upsert touches only its own column). Engine and model names are configuration, not
 * patient data, so they are stored in clear; the servers an account chose (addresses and keys) are
 * sealed with the data key, so a copied database file does not give their keys away.
 */
export function createEngineSettingsStore(db: Db, cipher?: FieldCipher): EngineSettingsStore {
  const column = (name: 'asr_engine' | 'note_engine' | 'engine_failure' | 'engine_servers') => ({
    get: db.prepare(`SELECT ${name} AS value FROM account_settings WHERE account_id = ?`),
    set: db.prepare(
      `INSERT INTO account_settings (account_id, ${name}) VALUES (?, ?)
       ON CONFLICT(account_id) DO UPDATE SET ${name} = excluded.${name}`,
    ),
  });
  const asr = column('asr_engine');
  const note = column('note_engine');
  const failure = column('engine_failure');
  const servers = column('engine_servers');
  const read = (q: ReturnType<typeof column>, accountId: string): string | null => (q.get.get(accountId) as { value: string | null } | undefined)?.value ?? null;
  return {
    getAsrEngine: async (accountId) => read(asr, accountId),
    setAsrEngine: async (accountId, engine) => void asr.set.run(accountId, engine),
    getNoteEngine: async (accountId) => read(note, accountId),
    setNoteEngine: async (accountId, engine) => void note.set.run(accountId, engine),
    getFailurePolicy: async (accountId) => read(failure, accountId) as EngineFailurePolicy | null,
    setFailurePolicy: async (accountId, policy) => void failure.set.run(accountId, policy),
    getServers: async (accountId) => {
      const stored = read(servers, accountId);
      if (stored === null) return null;
      return JSON.parse(cipher ? cipher.open(stored, serversContext(accountId)) : stored) as EngineServers;
    },
    setServers: async (accountId, value) => {
      const json = value === null ? null : JSON.stringify(value);
      void servers.set.run(accountId, json === null || !cipher ? json : cipher.seal(json, serversContext(accountId)));
    },
  };
}
