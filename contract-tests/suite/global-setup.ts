/**
 * Starts the private PostgreSQL cluster (server/test-support/postgres-cluster.ts) and every selected
 * target before the suite, and stops them after it: nothing is left running.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../../server/test-support/postgres-cluster.ts';
import { selectedTargets, startTarget, type RunningTarget } from './targets.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    targets: Omit<RunningTarget, 'stop'>[];
    /** The socket folder of the tests' PostgreSQL cluster, whose template database is migrated. */
    postgresSocketFolder: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgresCluster();
  let running: RunningTarget[];
  try {
    running = await Promise.all(selectedTargets().map((name) => startTarget(name, { postgres })));
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  project.provide('targets', running.map(({ stop: _stop, ...target }) => target));
  project.provide('postgresSocketFolder', postgres.socketFolder);
  return async () => {
    await Promise.all(running.map((target) => target.stop()));
    await postgres.stop();
  };
}
