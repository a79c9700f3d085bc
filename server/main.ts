/**
 * `npm start`: serves the service at http://127.0.0.1:3000/v1 (PORT overrides) on the embedded
 * database (DATABASE_URL, default ./data/wsdq.sqlite). A bad variable stops it with exit code 2; an
 * address it cannot bind, with exit code 1; "listening" is printed only once the socket is bound,
 * and only then do the job runner, webhooks and monitors start. SIGTERM or SIGINT turns /readyz
 * to 503, lets in-flight requests finish and the background work release its leases, then closes
 * the database. This file reads the configuration; serve.ts, loaded only once it is accepted, does
 * the rest.
 */
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ConfigError, refuseConfiguration } from './config-error.ts';
import { readConfig } from './config.ts';

let config;
try {
  config = readConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  refuseConfiguration(error.message);
}
// The server's modules are loaded only for a configuration that is accepted: a refusal takes ~0.2 s, not ~0.8 s.
// Node's compile cache keeps their stripped and compiled code between starts, in the project's own
// node_modules/.cache (not the shared temporary folder, where another account could plant code).
enableCompileCache(fileURLToPath(new URL('../node_modules/.cache/node-compile-cache', import.meta.url)));
const { serve } = await import('./serve.ts');
await serve(config);
