/**
 * A key issued on the database at `databaseUrl` through the key store, as `key:create` issues it
 * (cli/keys.test.ts runs that command), for tests of server processes: in the test's process, not
 * a Node start-up per key.
 */
import type { NewKeyOptions } from '../store/api-keys.ts';
import { openStores } from '../store/index.ts';

/** Issues the key and returns its secret; the database is closed again before the server opens it. */
export async function issueKey(databaseUrl: string, options: NewKeyOptions): Promise<string> {
  const stores = await openStores(databaseUrl);
  try {
    return (await stores.keys.create(options)).secret;
  } finally {
    await stores.database.close();
  }
}
