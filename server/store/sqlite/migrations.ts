/** The database schema, one migration per entry, applied in order and never edited once released. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    name TEXT,
    sandbox INTEGER NOT NULL CHECK (sandbox IN (0, 1)),
    scopes TEXT NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    rate_limit_requests INTEGER,
    rate_limit_window_seconds INTEGER,
    webhook_secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
  );

  CREATE TABLE ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    kind TEXT NOT NULL CHECK (kind IN ('top_up', 'charge', 'refund')),
    amount INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    request_id TEXT,
    operation_id TEXT,
    job_id TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX ledger_by_key ON ledger (key_id, id);
  CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
  CREATE TRIGGER ledger_is_append_only_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;

  CREATE TABLE idempotency_records (
    key_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    status INTEGER,
    headers TEXT,
    body TEXT,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
  );

  CREATE TABLE response_cache (
    cache_key TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    stored_at_ms INTEGER NOT NULL
  );

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    sandbox INTEGER NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    request TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX jobs_by_key ON jobs (key_id, id DESC);
  CREATE INDEX jobs_active ON jobs (status) WHERE status IN ('queued', 'running');

  CREATE TABLE job_pages (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    page TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
  );

  CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    record TEXT NOT NULL
  );
  CREATE INDEX monitors_by_key ON monitors (key_id, id DESC);
  `,
  `
  -- Where a live job stands between pages (crawl frontier, visited URLs), saved with each page.
  ALTER TABLE jobs ADD COLUMN progress TEXT;
  `,
  `
  -- Webhook messages (Standard Webhooks): written in the same transaction as the change they
  -- announce, then delivered and retried by the dispatcher; the state of every message is kept.
  CREATE TABLE webhook_messages (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    url TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at_ms INTEGER NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhook_messages_due ON webhook_messages (next_attempt_at_ms) WHERE state = 'pending';
  `,
  `
  -- Monitors: when each is due (for the scheduler), and the checks it has made.
  ALTER TABLE monitors ADD COLUMN next_check_at_ms INTEGER;
  CREATE INDEX monitors_due ON monitors (next_check_at_ms) WHERE next_check_at_ms IS NOT NULL;
  CREATE TABLE monitor_checks (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
    checked_at_ms INTEGER NOT NULL,
    check_record TEXT NOT NULL,
    content TEXT
  );
  CREATE INDEX monitor_checks_by_monitor ON monitor_checks (monitor_id, checked_at_ms);
  `,
  `
  -- A crawl or batch scrape that ends failed with no page stored gets its submission charge back,
  -- once: the job keeps the id of the request that submitted it (the charge's reference), and the
  -- ledger holds at most one refund per job, whatever replays the job's end.
  ALTER TABLE jobs ADD COLUMN request_id TEXT;
  CREATE UNIQUE INDEX ledger_one_refund_per_job ON ledger (job_id) WHERE kind = 'refund' AND job_id IS NOT NULL;
  `,
  `
  -- Jobs by status for GET /metrics: counted from this index alone, not the job records.
  CREATE INDEX jobs_by_status ON jobs (status);
  `,
  `
  -- A page of a job is charged at most once, whatever replays its step: the charge names the
  -- page's sequence number, and the ledger holds one charge per job and page. Rate-limit windows
  -- live here too, so every process on the database counts one window per key.
  ALTER TABLE ledger ADD COLUMN job_page_seq INTEGER;
  CREATE UNIQUE INDEX ledger_one_charge_per_page ON ledger (job_id, job_page_seq) WHERE job_page_seq IS NOT NULL;
  CREATE TABLE rate_limit_windows (
    key_id TEXT PRIMARY KEY,
    window_starts_at_ms INTEGER NOT NULL,
    count INTEGER NOT NULL
  );
  `,
  `
  -- Webhook messages name their subject (the job or monitor they announce): one subject's events
  -- are delivered in the order they were queued, different subjects' concurrently.
  ALTER TABLE webhook_messages ADD COLUMN subject TEXT;
  UPDATE webhook_messages SET subject = COALESCE(json_extract(payload, '$.data.job.id'), json_extract(payload, '$.data.monitor.id'), id);
  CREATE INDEX webhook_messages_pending_by_subject ON webhook_messages (subject) WHERE state = 'pending';
  `,
  `
  -- Leases: the instance working on a job, a monitor check or a webhook delivery, and until when;
  -- another instance takes the work over once the lease has expired (store/leases.ts).
  ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
  ALTER TABLE jobs ADD COLUMN lease_expires_at_ms INTEGER;
  ALTER TABLE monitors ADD COLUMN lease_owner TEXT;
  ALTER TABLE monitors ADD COLUMN lease_expires_at_ms INTEGER;
  ALTER TABLE webhook_messages ADD COLUMN lease_owner TEXT;
  ALTER TABLE webhook_messages ADD COLUMN lease_expires_at_ms INTEGER;
  `,
];
