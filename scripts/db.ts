/**
 * `npm run db:start` / `npm run db:stop`: the same private PostgreSQL cluster the tests start,
 * kept in ./data/postgres (created on first start, its data kept between runs), listening on a
 * Unix socket in that folder only. Prints the DATABASE_URL of its `wsdq` database, for trying
 * several server instances on one machine.
 */
import { resolve } from 'node:path';
import { startPostgresCluster, stopPostgresCluster } from '../server/test-support/postgres-cluster.ts';
import { projectRoot } from './paths.ts';

const folder = resolve(projectRoot, 'data', 'postgres');
const command = process.argv[2];

if (command === 'start') {
  const cluster = await startPostgresCluster({ folder, removeOnStop: false });
  const url = await cluster.createDatabase('wsdq');
  console.log(`PostgreSQL runs in ${folder} (socket only, no TCP). Start instances on it with:`);
  console.log(`  DATABASE_URL='${url}' PORT=3000 npm start`);
  console.log(`  DATABASE_URL='${url}' PORT=3001 npm start`);
  console.log('Stop it with: npm run db:stop');
} else if (command === 'stop') {
  await stopPostgresCluster(folder);
  console.log(`PostgreSQL in ${folder} stopped (its data is kept).`);
} else {
  console.error('usage: node scripts/db.ts start|stop');
  process.exitCode = 2;
}
