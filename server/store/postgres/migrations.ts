/**
 * The PostgreSQL schema, one migration per entry, applied in order and never edited once released.
 * It is SQLite's schema (../sqlite/migrations.ts) as it stands after all of its migrations, in
 * PostgreSQL's types: BIGINT for milliseconds and credits, BIGSERIAL where SQLite counts rows.
 * `monitor_checks` and `webhook_messages` carry a `rowid` column (insertion order), so the stores'
 * SQL that orders by SQLite's implicit rowid reads the same on both engines.
 */
import { LEASES_MIGRATION } from './leases-migration.ts';

export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    name TEXT,
    sandbox INTEGER NOT NULL CHECK (sandbox IN (0, 1)),
    scopes TEXT NOT NULL,
    balance BIGINT NOT NULL CHECK (balance >= 0),
    rate_limit_requests INTEGER,
    rate_limit_window_seconds INTEGER,
    webhook_secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
  );

  CREATE TABLE ledger (
    id BIGSERIAL PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    kind TEXT NOT NULL CHECK (kind IN ('top_up', 'charge', 'refund')),
    amount BIGINT NOT NULL,
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    request_id TEXT,
    operation_id TEXT,
    job_id TEXT,
    job_page_seq INTEGER,
    created_at TEXT NOT NULL
  );
  CREATE INDEX ledger_by_key ON ledger (key_id, id);
  CREATE UNIQUE INDEX ledger_one_refund_per_job ON ledger (job_id) WHERE kind = 'refund' AND job_id IS NOT NULL;
  CREATE UNIQUE INDEX ledger_one_charge_per_page ON ledger (job_id, job_page_seq) WHERE job_page_seq IS NOT NULL;
  CREATE FUNCTION ledger_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'the ledger is append-only';
  END;
  $$;
  CREATE TRIGGER ledger_is_append_only BEFORE UPDATE OR DELETE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_is_append_only();

  CREATE TABLE idempotency_records (
    key_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at_ms BIGINT NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
  );

  CREATE TABLE response_cache (
    cache_key TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    stored_at_ms BIGINT NOT NULL
  );

  CREATE TABLE rate_limit_windows (
    key_id TEXT PRIMARY KEY,
    window_starts_at_ms BIGINT NOT NULL,
    count INTEGER NOT NULL
  );

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    sandbox INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL,
    progress TEXT,
    request_id TEXT
  );
  CREATE INDEX jobs_by_key ON jobs (key_id, id DESC);
  CREATE INDEX jobs_active ON jobs (status) WHERE status IN ('queued', 'running');
  CREATE INDEX jobs_by_status ON jobs (status);

  CREATE TABLE job_pages (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    page TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
  );

  CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    record TEXT NOT NULL,
    next_check_at_ms BIGINT
  );
  CREATE INDEX monitors_by_key ON monitors (key_id, id DESC);
  CREATE INDEX monitors_due ON monitors (next_check_at_ms) WHERE next_check_at_ms IS NOT NULL;

  CREATE TABLE monitor_checks (
    id TEXT PRIMARY KEY,
    rowid BIGSERIAL NOT NULL,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    checked_at_ms BIGINT NOT NULL,
    check_record TEXT NOT NULL,
    content TEXT
  );
  CREATE INDEX monitor_checks_by_monitor ON monitor_checks (monitor_id, checked_at_ms);

  CREATE TABLE webhook_messages (
    id TEXT PRIMARY KEY,
    rowid BIGSERIAL NOT NULL,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    url TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at_ms BIGINT NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhook_messages_due ON webhook_messages (next_attempt_at_ms) WHERE state = 'pending';
  CREATE INDEX webhook_messages_by_key ON webhook_messages (key_id, rowid);
  `,
  LEASES_MIGRATION,
];
