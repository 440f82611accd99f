import type pg from 'pg';
import { inTransaction } from './sql.js';

/** A table of one kind of account document (templates, macros): a JSON body under an id the account chose. */
const accountDocuments = (table: string): string => `CREATE TABLE ${table} (
    id TEXT COLLATE "C" NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, id)
  );
  CREATE INDEX ${table}_account_created ON ${table}(account_id, created_at DESC, id DESC);`;

/**
 * PostgreSQL schema, versioned. The first entry is the SQLite schema at its version 7
 * (main/store/migrations.ts, all seven applied) less the model tables, which stay in each
 * device's SQLite file because installed model files are local to a machine. Times are BIGINT
 * milliseconds like SQLite's INTEGER; sealed columns are TEXT holding `enc:v1:` values. Paged tables
 * compare ids bytewise (COLLATE "C"), as SQLite does, so pages and cursors order the same on a
 * server of any locale.
 * Never edit a released entry: add one (with its SQLite twin when the change is not PostgreSQL-only).
 */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: accounts, keys, notes, templates, macros, transcriptions, jobs, idempotency, webhooks,
  // the append-only audit trail, per-account settings and visits.
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT,
    last_used_at BIGINT
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE stream_tokens (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_id TEXT NOT NULL,
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX stream_tokens_expiry ON stream_tokens(expires_at);
  CREATE TABLE notes (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    markdown TEXT,
    json TEXT,
    error TEXT,
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    completed_at BIGINT,
    version INTEGER NOT NULL DEFAULT 1,
    signed_at BIGINT,
    signed_by TEXT,
    addenda TEXT,
    engine TEXT,
    engine_model TEXT
  );
  CREATE INDEX notes_account_created ON notes(account_id, created_at DESC, id DESC);
  ${accountDocuments('note_templates')}
  ${accountDocuments('macros')}
  CREATE TABLE transcriptions (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    audio_blob TEXT,
    audio_type TEXT,
    result TEXT,
    error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    started_at BIGINT,
    completed_at BIGINT
  );
  CREATE INDEX transcriptions_account_created ON transcriptions(account_id, created_at DESC, id DESC);
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_after BIGINT NOT NULL,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX jobs_ready ON jobs(status, run_after);
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX webhooks_account ON webhooks(account_id, created_at, id);
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    webhook_id TEXT,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    event TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
  CREATE INDEX webhook_deliveries_account ON webhook_deliveries(account_id, created_at, id);
  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at BIGINT NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
  );
  CREATE TABLE audit_events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    at BIGINT NOT NULL,
    account_id TEXT,
    key_id TEXT,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_id TEXT,
    operation TEXT,
    ip TEXT,
    outcome TEXT NOT NULL,
    status INTEGER,
    request_id TEXT,
    signer TEXT
  );
  CREATE INDEX audit_events_account ON audit_events(account_id, seq DESC);
  -- Append-only, as in SQLite: row updates and deletes abort, and so does TRUNCATE, which
  -- row triggers would not see.
  CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit_events is append-only'; END;
  $$;
  CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
  CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
    FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
  CREATE TABLE account_settings (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    retention_days INTEGER,
    asr_engine TEXT,
    note_engine TEXT
  );
  CREATE TABLE visits (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version INTEGER NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX visits_account_created ON visits(account_id, created_at DESC, id DESC);
  `,
  // 2: which instance claimed a running job or a delivery being sent (instance-lease.ts), so
  // recovery takes back only the work of instances that are gone. No SQLite counterpart: one
  // process owns a SQLite file.
  `
  ALTER TABLE jobs ADD COLUMN claimed_by INTEGER;
  ALTER TABLE webhook_deliveries ADD COLUMN claimed_by INTEGER;
  `,
  // 3: rate-limit windows shared by the API instances (rate-windows.ts). UNLOGGED: one write per
  // request without WAL; a crash or a failover empties the table, which only restarts the windows.
  // No SQLite counterpart: one process counts in memory.
  `
  CREATE UNLOGGED TABLE rate_windows (
    key TEXT PRIMARY KEY,
    ends_at BIGINT NOT NULL,
    count INTEGER NOT NULL
  );
  CREATE INDEX rate_windows_ends ON rate_windows(ends_at);
  `,
  // 4: failed-key counters and lockouts shared by the API instances (auth-failures.ts), keyed by
  // address or address and claimed account. UNLOGGED like the windows: a crash forgets them, which
  // only ends lockouts early. SQLite keeps the same table since its migration 10 (issue 29).
  `
  CREATE UNLOGGED TABLE auth_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    window_start BIGINT NOT NULL,
    last_failure BIGINT NOT NULL,
    locked_until BIGINT NOT NULL,
    lockouts INTEGER NOT NULL
  );
  CREATE INDEX auth_failures_locked ON auth_failures(locked_until);
  CREATE INDEX auth_failures_last ON auth_failures(last_failure);
  `,
  // 5: the instance holding an Idempotency-Key claim (its lease, instance-lease.ts), so a claim whose
  // instance is gone is taken over at once instead of after the claims' stale time.
  `
  ALTER TABLE idempotency_keys ADD COLUMN claimed_by BIGINT;
  `,
  // 6 (issue 29, SQLite's 8): the operator role; the webhook outbox, written by the statement that
  // finishes a note or transcription and drained into deliveries by the dispatchers.
  `
  ALTER TABLE accounts ADD COLUMN operator BOOLEAN NOT NULL DEFAULT false;
  CREATE TABLE webhook_outbox (
    id TEXT COLLATE "C" PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    request_url TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX webhook_outbox_created ON webhook_outbox(created_at, id);
  `,
  // 7 (issue 26): as SQLite 9: the engine a note fell back from; per account, the failure policy and the servers chosen per task.
  `
  ALTER TABLE notes ADD COLUMN engine_fallback TEXT;
  ALTER TABLE account_settings ADD COLUMN engine_failure TEXT;
  ALTER TABLE account_settings ADD COLUMN engine_servers TEXT;
  `,
  // 8 (issue 27): as SQLite 11: each account's voice adaptation (recordings and adapted model by blob key, body sealed).
  `
  ${accountDocuments('voice_adaptation')}
  `,
];

// Advisory locks are per database: one key serialises every Clindoc instance migrating it.
const MIGRATION_LOCK = 0x636c696e; // 'clin'

/**
 * Applies pending migrations, each in its own transaction under a transaction-scoped advisory
 * lock, recording it in `clindoc_schema_migrations`. Instances that start together queue on the
 * lock; each re-reads the applied versions under it, so every migration runs exactly once.
 * Returns the schema version reached. A database newer than this code is refused.
 */
export async function migratePg(pool: pg.Pool, migrations: readonly string[] = PG_MIGRATIONS): Promise<number> {
  const applied = async (): Promise<Set<number>> =>
    inTransaction(pool, async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await sql.query('CREATE TABLE IF NOT EXISTS clindoc_schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
      const { rows } = await sql.query<{ version: number }>('SELECT version FROM clindoc_schema_migrations');
      return new Set(rows.map((r) => r.version));
    });
  const seen = await applied();
  const newest = Math.max(0, ...seen);
  if (newest > migrations.length) {
    throw new Error(`the database schema is at version ${newest}, newer than this Clindoc knows (${migrations.length}): upgrade Clindoc`);
  }
  for (let version = 1; version <= migrations.length; version++) {
    if (seen.has(version)) continue;
    await inTransaction(pool, async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const { rowCount } = await sql.query('SELECT 1 FROM clindoc_schema_migrations WHERE version = $1', [version]);
      if (rowCount > 0) return; // another instance applied it while this one waited
      await sql.query(migrations[version - 1]!);
      await sql.query('INSERT INTO clindoc_schema_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
    });
  }
  return migrations.length;
}
