/**
 * Starts the private PostgreSQL cluster (server/test-support/postgres-cluster.ts) and every selected
 * target before the suite, and stops them after it: nothing is left running.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startPostgresCluster, type PostgresCluster } from '../../server/test-support/postgres-cluster.ts';
import { selectedTargets, startTarget, type RunningTarget } from './targets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    targets: Omit<RunningTarget, 'stop'>[];
    /** The socket folder of the tests' PostgreSQL cluster, whose template database is migrated. */
    postgresSocketFolder: string;
    /** A folder for what tests make and do not remove one by one (database files), removed after the run. */
    runFolder: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The cluster (initdb, start, the migrated template) starts beside the targets that do not need
  // it, rather than before all of them: every test file waits for global setup.
  const starting = startPostgresCluster();
  starting.catch(() => undefined); // Its failure is thrown below, once the targets have settled.
  const targets = await Promise.allSettled(selectedTargets().map((name) => startTarget(name, { postgres: starting })));
  const running = targets.flatMap((target) => (target.status === 'fulfilled' ? [target.value] : []));
  let postgres: PostgresCluster;
  try {
    postgres = await starting;
    const failed = targets.find((target): target is PromiseRejectedResult => target.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await Promise.allSettled(running.map((target) => target.stop()));
    await starting.then((cluster) => cluster.stop(), () => undefined);
    throw error;
  }
  project.provide('targets', running.map(({ stop: _stop, ...target }) => target));
  project.provide('postgresSocketFolder', postgres.socketFolder);
  // Removed by the teardown: the workers are stopped, not exited, so they cannot remove their own files.
  const runFolder = await mkdtemp(join(tmpdir(), 'vitest-run-'));
  project.provide('runFolder', runFolder);
  return async () => {
    await Promise.all(running.map((target) => target.stop()));
    await postgres.stop();
    await rm(runFolder, { recursive: true, force: true });
  };
}
