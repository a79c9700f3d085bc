/** A fresh PostgreSQL database for one test file, copied from the migrated template of the suite's cluster (contract-tests/suite/global-setup.ts). */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { TEMPLATE_DATABASE } from './postgres-cluster.ts';

/** Creates a database from the template and answers its URL (a Unix-socket URL, as an operator would write one). */
export async function newPostgresDatabase(): Promise<string> {
  const socketFolder = inject('postgresSocketFolder');
  const url = (database: string) => `postgres://postgres@/${database}?host=${socketFolder}`;
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  return url(name);
}
