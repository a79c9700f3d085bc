/** Jobs (crawl, batch scrape, agent) and their stored pages, per API key, newest first. */
import type { components } from '../../generated/types.ts';
import { decodeCursor, encodeCursor, newestFirstPage } from './cursor.ts';
import { Leases } from './leases.ts';
import type { SqlDatabase } from './sql.ts';

export type Job = components['schemas']['Job'];
export type JobPage = components['schemas']['JobPage'];
export type JobStatus = components['schemas']['JobStatus'];

/** What the job runner needs beyond the record: who owns it and what was asked. */
export interface StoredJob {
  job: Job;
  keyId: string;
  sandbox: boolean;
  request: Record<string, unknown>;
  /** The id of the request that submitted the job (its submission charge's reference); null on jobs older than the column. */
  requestId: string | null;
}

export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

interface JobRow {
  key_id: string;
  sandbox: number;
  request: string;
  record: string;
  request_id: string | null;
}

function toStoredJob(row: JobRow): StoredJob {
  return { job: JSON.parse(row.record), keyId: row.key_id, sandbox: row.sandbox === 1, request: JSON.parse(row.request), requestId: row.request_id };
}

export class JobStore {
  private readonly database: SqlDatabase;
  /** Which instance runs each active job (the job runner's leases). */
  readonly leases: Leases;

  constructor(database: SqlDatabase) {
    this.database = database;
    this.leases = new Leases(database, 'jobs');
  }

  /** Claims for `owner` up to `limit` queued or running jobs no instance holds (or whose lease expired), oldest first. */
  async claimActive(owner: string, nowMs: number, leaseMs: number, limit: number): Promise<StoredJob[]> {
    const ids = await this.leases.claim(`status IN ('queued', 'running')`, [], 'id', limit, owner, nowMs, leaseMs);
    const claimed: StoredJob[] = [];
    for (const id of ids.sort()) {
      const row = await this.database.get<JobRow>('SELECT key_id, sandbox, request, record, request_id FROM jobs WHERE id = ?', [id]);
      if (row) claimed.push(toStoredJob(row));
    }
    return claimed;
  }

  /** Claims one queued or running job for `owner`, when no instance holds it (or its lease expired). */
  async claim(jobId: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean> {
    return this.leases.claimOne(jobId, `status IN ('queued', 'running')`, [], owner, nowMs, leaseMs);
  }

  async insert(stored: StoredJob): Promise<void> {
    await this.database.run('INSERT INTO jobs (id, key_id, sandbox, kind, status, request, record, created_at, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [
      stored.job.id, stored.keyId, stored.sandbox ? 1 : 0, stored.job.kind, stored.job.status, JSON.stringify(stored.request), JSON.stringify(stored.job), stored.job.created_at, stored.requestId,
    ]);
  }

  /** Writes the record back (its status column follows it). */
  async save(job: Job): Promise<void> {
    await this.database.run('UPDATE jobs SET status = ?, record = ? WHERE id = ?', [job.status, JSON.stringify(job), job.id]);
  }

  /** Where a running job stands between pages, or undefined before its first step. */
  async progress<T>(jobId: string): Promise<T | undefined> {
    const row = await this.database.get<{ progress: string | null }>('SELECT progress FROM jobs WHERE id = ?', [jobId]);
    return row?.progress ? (JSON.parse(row.progress) as T) : undefined;
  }

  async saveProgress(jobId: string, progress: unknown): Promise<void> {
    await this.database.run('UPDATE jobs SET progress = ? WHERE id = ?', [JSON.stringify(progress), jobId]);
  }

  /** The job's status alone (a cheap read between pages), or undefined when it is gone. */
  async status(jobId: string): Promise<JobStatus | undefined> {
    return (await this.database.get<{ status: JobStatus }>('SELECT status FROM jobs WHERE id = ?', [jobId]))?.status;
  }

  /** The job if it belongs to `keyId`. */
  async get(keyId: string, jobId: string): Promise<StoredJob | undefined> {
    const row = await this.database.get<JobRow>('SELECT key_id, sandbox, request, record, request_id FROM jobs WHERE id = ? AND key_id = ?', [jobId, keyId]);
    return row ? toStoredJob(row) : undefined;
  }

  /** How many jobs are in each status, whoever owns them (an index-only read). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.database.all<{ status: string; count: number }>('SELECT status, COUNT(*) AS count FROM jobs GROUP BY status');
    return Object.fromEntries(rows.map((row) => [row.status, row.count]));
  }

  /** One page of a key's jobs, newest first. `after` is the decoded cursor. */
  async list(keyId: string, limit: number, after: string | undefined): Promise<{ jobs: Job[]; nextCursor: string | null }> {
    const { records, nextCursor } = await newestFirstPage<Job>(this.database, 'jobs', keyId, limit, after);
    return { jobs: records, nextCursor };
  }

  /** Deletes a job and its pages. */
  async remove(jobId: string): Promise<void> {
    await this.database.run('DELETE FROM jobs WHERE id = ?', [jobId]);
  }

  async addPage(jobId: string, seq: number, page: JobPage): Promise<void> {
    await this.database.run('INSERT INTO job_pages (job_id, seq, page) VALUES (?, ?, ?)', [jobId, seq, JSON.stringify(page)]);
  }

  /**
   * One page of a job's stored pages in order. While the job runs, the cursor always points past
   * the last page returned, so a poller receives only new pages.
   */
  async pages(keyId: string, job: Job, limit: number, cursor: string | undefined): Promise<{ pages: JobPage[]; nextCursor: string | null } | 'bad-cursor'> {
    let afterSeq = 0;
    if (cursor !== undefined) {
      const after = decodeCursor(cursor, `job-pages:${job.id}`, keyId);
      if (after === undefined || !/^\d+$/.test(after)) return 'bad-cursor';
      afterSeq = Number(after);
    }
    const rows = await this.database.all<{ seq: number; page: string }>('SELECT seq, page FROM job_pages WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?', [job.id, afterSeq, limit + 1]);
    const page = rows.slice(0, limit);
    const lastSeq = page.at(-1)?.seq ?? afterSeq;
    const more = rows.length > limit || !TERMINAL_STATUSES.includes(job.status);
    return { pages: page.map((row) => JSON.parse(row.page) as JobPage), nextCursor: more ? encodeCursor({ list: `job-pages:${job.id}`, keyId, after: String(lastSeq) }) : null };
  }
}
