/**
 * The one conversion pool the test servers and test web providers of a vitest worker share. A
 * worker thread of a pool costs ~0.2 s of CPU to start (it loads the converters), and a pool of
 * its own per test server started one for nearly every test that scrapes: ~16 a full run. The
 * pool is never closed: its idle workers keep no process alive, and a worker a test's page timed
 * out or exhausted is replaced as in production. The pool's own behaviour (timeouts, heap limits,
 * close) is conversion-pool.test.ts's, on pools of its own.
 */
import { ConversionPool } from '../providers/web/conversion-pool.ts';

let shared: ConversionPool | undefined;

/** This worker's shared pool, with the production options (main.ts builds its pool with them too). */
export function sharedConversionPool(): ConversionPool {
  shared ??= new ConversionPool();
  return shared;
}
