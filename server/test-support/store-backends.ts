/** The two backends the store tests run against, each giving the location of a new, empty (migrated on open) database. */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { newPostgresDatabase } from './postgres-database.ts';

export interface StoreBackend {
  name: string;
  /** A DATABASE_URL no one has used yet: a SQLite file in a new folder, or a new database on the tests' PostgreSQL cluster. */
  newLocation(): Promise<string>;
}

export const STORE_BACKENDS: StoreBackend[] = [
  // In the run's folder, which global setup removes after the run (regression: a folder per database,
  // never removed, left ~1,000 folders, 160 MB, in the temporary folder in a week of runs).
  { name: 'SQLite', newLocation: async () => join(await mkdtemp(join(inject('runFolder'), 'stores-')), 'stores.sqlite') },
  { name: 'PostgreSQL', newLocation: newPostgresDatabase },
];
