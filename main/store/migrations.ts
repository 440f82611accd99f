/**
 * A table of one kind of account document (templates, macros): a JSON body under an id the account
 * chose. SQLite keeps this text as the table's definition, so it must stay byte for byte as released.
 */
const accountDocuments = (table: string): string => `CREATE TABLE ${table} (
    id TEXT NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, id)
  );`;

/** SQLite adds one column per ALTER TABLE statement: one statement per column, on lines of their own. */
const addColumns = (table: string, ...columns: string[]): string => columns.map((c) => `ALTER TABLE ${table} ADD COLUMN ${c};`).join('\n  ');

/**
 * Versioned schema migrations. Each entry runs once, in order, inside a transaction; the
 * applied version is kept in SQLite's `user_version`. Never edit a released migration: add one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: accounts, keys, notes, templates, transcriptions, jobs, idempotency
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    last_used_at INTEGER
  );
  CREATE INDEX api_keys_account ON api_keys(account_id);
  CREATE TABLE stream_tokens (
    hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_id TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    markdown TEXT,
    json TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    completed_at INTEGER
  );
  CREATE INDEX notes_account_created ON notes(account_id, created_at DESC, id DESC);
  ${accountDocuments('note_templates')}
  CREATE TABLE transcriptions (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    options TEXT NOT NULL,
    audio_blob TEXT,
    audio_type TEXT,
    result TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    started_at INTEGER,
    completed_at INTEGER
  );
  CREATE INDEX transcriptions_account_created ON transcriptions(account_id, created_at DESC, id DESC);
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    account_id TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_after INTEGER NOT NULL,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX jobs_ready ON jobs(status, run_after);
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  `,
  // 2: webhooks and their delivery attempts, macros library
  `
  CREATE TABLE webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
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
    next_attempt_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
  );
  ${accountDocuments('macros')}
  `,
  // 3: append-only audit trail, per-account retention settings
  `
  CREATE TABLE audit_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    at INTEGER NOT NULL,
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
    request_id TEXT
  );
  CREATE INDEX audit_events_account ON audit_events(account_id, seq DESC);
  CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
  CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
  CREATE TABLE account_settings (
    account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    retention_days INTEGER
  );
  `,
  // 4: per-account default speech recogniser (NULL follows CLINDOC_ASR_ENGINE)
  `
  ALTER TABLE account_settings ADD COLUMN asr_engine TEXT;
  `,
  // 5: notes are drafts until signed; later changes are addenda (sealed). The trail names the signer.
  `
  ${addColumns('notes', 'version INTEGER NOT NULL DEFAULT 1', 'signed_at INTEGER', 'signed_by TEXT', 'addenda TEXT')}
  ${addColumns('audit_events', 'signer TEXT')}
  `,
  // Installed models (device-wide), the hashes pinned at a model's first download (kept when it is
  // removed), downloads with their progress; each account's note engine; the engine and model that
  // wrote each note.
  `
  CREATE TABLE models (
    id TEXT PRIMARY KEY,
    task TEXT NOT NULL,
    engine TEXT NOT NULL,
    title TEXT NOT NULL,
    origin TEXT NOT NULL,
    files TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    installed_at INTEGER NOT NULL,
    verified_at INTEGER
  );
  CREATE TABLE model_pins (
    model_id TEXT NOT NULL,
    path TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    pinned_at INTEGER NOT NULL,
    PRIMARY KEY (model_id, path)
  );
  CREATE TABLE model_pulls (
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    received_bytes INTEGER NOT NULL DEFAULT 0,
    total_bytes INTEGER,
    file TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER
  );
  CREATE INDEX model_pulls_model ON model_pulls(model_id, created_at DESC);
  ALTER TABLE account_settings ADD COLUMN note_engine TEXT;
  ALTER TABLE notes ADD COLUMN engine TEXT;
  ALTER TABLE notes ADD COLUMN engine_model TEXT;
  `,
  // Visits: one patient encounter and everything documented for it (content sealed).
  `
  CREATE TABLE visits (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX visits_account_created ON visits(account_id, created_at DESC, id DESC);
  `,
  // 8 (issue 29): the operator role (installation-wide actions: backups, models, code sets); the
  // webhook outbox, written in the transaction that finishes a note or transcription and drained
  // into deliveries by the dispatcher, so a process that dies between the two loses no event.
  `
  ALTER TABLE accounts ADD COLUMN operator INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE webhook_outbox (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    event TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    request_url TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX webhook_outbox_created ON webhook_outbox(created_at, id);
  `,
  // 9 (issue 26): the chosen engine a note fell back from (engine names and why, no patient data);
  // per account, what to do when a chosen engine fails and the servers chosen per task (keys sealed).
  `
  ${addColumns('notes', 'engine_fallback TEXT')}
  ${addColumns('account_settings', 'engine_failure TEXT', 'engine_servers TEXT')}
  `,
  // 10 (issue 29): failed-key counters and lockouts (auth-failures-store.ts), as PostgreSQL's
  // auth_failures, so a restart does not hand a guesser a fresh set of tries.
  `
  CREATE TABLE auth_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    window_start INTEGER NOT NULL,
    last_failure INTEGER NOT NULL,
    locked_until INTEGER NOT NULL,
    lockouts INTEGER NOT NULL
  );
  CREATE INDEX auth_failures_locked ON auth_failures(locked_until);
  CREATE INDEX auth_failures_last ON auth_failures(last_failure);
  `,
  // 11 (issue 27): each account's voice adaptation: enrollment recordings and adapted model by blob key (body sealed).
  `
  ${accountDocuments('voice_adaptation')}
  `,
];

