/**
 * A lease this instance holds on one job, monitor or webhook message (store/leases.ts): renewed
 * every third of its time while the work runs, checked at every commit of the work (the
 * transaction first renews it, and fails with `LeaseLost` when another instance took it over),
 * and released when the work ends.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from './clock.ts';
import { reportOnStderr } from './repeat.ts';
import type { Stores } from './store/index.ts';
import type { Leases } from './store/leases.ts';
import type { SqlDatabase } from './store/sql.ts';

/** Who claims work and for how long: this instance's id and the lease time (`LEASE_MS`). */
export interface LeaseTerms {
  owner: string;
  leaseMs: number;
}

export const DEFAULT_LEASE_MS = 30_000;

/** An id no other running instance has: host, process and a random part (a restarted process gets a new one). */
export function newInstanceId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Terms for a component built without any (tests, one instance): a fresh id, the default lease time. */
export function defaultLeaseTerms(): LeaseTerms {
  return { owner: newInstanceId(), leaseMs: DEFAULT_LEASE_MS };
}

/** The work's lease was taken over by another instance (or released): what it did since is not written. */
export class LeaseLost extends Error {
  constructor(id: string) {
    super(`the lease on ${id} is no longer this instance's`);
    this.name = 'LeaseLost';
  }
}

export class HeldLease {
  readonly id: string;
  private readonly leases: Leases;
  private readonly terms: LeaseTerms;
  private readonly clock: Clock;
  private readonly heartbeat: NodeJS.Timeout;
  private isLost = false;

  /** Starts renewing a lease just claimed. */
  constructor(leases: Leases, id: string, terms: LeaseTerms, clock: Clock) {
    this.leases = leases;
    this.id = id;
    this.terms = terms;
    this.clock = clock;
    this.heartbeat = setInterval(() => void this.renew().catch(reportOnStderr), Math.max(1, Math.floor(terms.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Whether a renewal found the lease another instance's. */
  get lost(): boolean {
    return this.isLost;
  }

  /** Renews the lease (call first in a transaction that writes the work's outcome); throws `LeaseLost` when it is no longer ours. */
  async verify(): Promise<void> {
    if (!(await this.renew())) throw new LeaseLost(this.id);
  }

  /** Stops renewing and gives the lease up. */
  async release(): Promise<void> {
    this.stop();
    await this.leases.release(this.id, this.terms.owner);
  }

  /** Stops renewing (the lease is lost, or its row already cleared it). */
  stop(): void {
    clearInterval(this.heartbeat);
  }

  private async renew(): Promise<boolean> {
    if (this.isLost) return false;
    const ours = await this.leases.renew(this.id, this.terms.owner, this.clock.now(), this.terms.leaseMs);
    if (!ours) {
      this.isLost = true;
      this.stop();
    }
    return ours;
  }
}

/**
 * The stores as seen by work under `lease`: every transaction (a savepoint too) first verifies the
 * lease, so nothing of the work is written once another instance holds it.
 */
export function leasedStores(stores: Stores, lease: HeldLease): Stores {
  const database = stores.database;
  const guarded: SqlDatabase = {
    dialect: database.dialect,
    run: (sql, params) => database.run(sql, params),
    get: (sql, params) => database.get(sql, params),
    all: (sql, params) => database.all(sql, params),
    transaction: (work) => database.transaction(async () => {
      await lease.verify();
      return work();
    }),
    migrationsApplied: () => database.migrationsApplied(),
    close: () => database.close(),
  };
  return { ...stores, database: guarded };
}
