/**
 * The PostgreSQL migration for webhook subjects and leases, the counterpart of the last two SQLite
 * migrations (sqlite/migrations.ts): the PostgreSQL backend appends it to its MIGRATIONS, after its
 * schema (which gives `webhook_messages` the `rowid` column the stores order by). The lease SQL
 * itself (store/leases.ts) is one for both engines: on PostgreSQL a claim adds `FOR UPDATE SKIP
 * LOCKED` to its candidates.
 */
export const LEASES_MIGRATION = `
  -- Webhook messages name their subject (the job or monitor they announce): one subject's events
  -- are delivered in the order they were queued, different subjects' concurrently. Leases: the
  -- instance working on a job, a monitor check or a webhook delivery, and until when; another
  -- instance takes the work over once the lease has expired (store/leases.ts).
  ALTER TABLE webhook_messages ADD COLUMN subject TEXT;
  UPDATE webhook_messages SET subject = COALESCE(payload::jsonb #>> '{data,job,id}', payload::jsonb #>> '{data,monitor,id}', id);
  CREATE INDEX webhook_messages_pending_by_subject ON webhook_messages (subject, rowid) WHERE state = 'pending';
  ALTER TABLE jobs ADD COLUMN lease_owner TEXT, ADD COLUMN lease_expires_at_ms BIGINT;
  ALTER TABLE monitors ADD COLUMN lease_owner TEXT, ADD COLUMN lease_expires_at_ms BIGINT;
  ALTER TABLE webhook_messages ADD COLUMN lease_owner TEXT, ADD COLUMN lease_expires_at_ms BIGINT;
  `;
