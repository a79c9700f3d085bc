/** The two backends the store tests run against, each giving the location of a new, empty (migrated on open) database. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPostgresDatabase } from './postgres-database.ts';

export interface StoreBackend {
  name: string;
  /** A DATABASE_URL no one has used yet: a SQLite file in a new folder, or a new database on the tests' PostgreSQL cluster. */
  newLocation(): Promise<string>;
}

export const STORE_BACKENDS: StoreBackend[] = [
  { name: 'SQLite', newLocation: async () => join(await mkdtemp(join(tmpdir(), 'stores-')), 'stores.sqlite') },
  { name: 'PostgreSQL', newLocation: newPostgresDatabase },
];
