/**
 * `npm run proxy -- --upstream URL [--port P] [--host H]`: the validation proxy at
 * http://127.0.0.1:4020/v1 in front of the deployment at URL. Point a client at it instead of the
 * deployment: every call passes through unchanged, and each departure from the contract prints
 * one line with its request id. The summary prints on Ctrl-C (SIGINT) or SIGTERM, and answers at
 * GET /__proxy/summary. Exit 2 on a usage error, 1 when the port cannot be bound.
 */
import { parseArgs } from 'node:util';
import { listen, ListenError } from '../../server/listen.ts';

const DEFAULT_PORT = 4020;
const usage = 'npm run proxy -- --upstream URL [--port P] [--host H]   (URL: the deployment\'s base URL, such as https://staging.example.com/v1)';

function usageError(message: string): never {
  console.error(`${message}\nusage: ${usage}`);
  process.exit(2);
}

function readOptions(): { upstream: URL; port: number; host: string } | undefined {
  let values;
  try {
    ({ values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } }, strict: true, allowPositionals: false }));
  } catch (error) {
    usageError((error as Error).message);
  }
  if (values.help) {
    console.log(`usage: ${usage}`);
    return undefined;
  }
  if (!values.upstream) usageError('--upstream is required');
  let upstream: URL;
  try {
    upstream = new URL(values.upstream);
  } catch {
    usageError(`--upstream must be an http or https URL, got "${values.upstream}"`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') usageError(`--upstream must be an http or https URL, got "${values.upstream}"`);
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(`--port must be an integer from 0 to 65535, got "${values.port}"`);
  return { upstream, port, host: values.host ?? '127.0.0.1' };
}

const options = readOptions();
if (options) {
  // Loaded once the options are read: a usage error answers at once, without the validators.
  const { createRequestChecker } = await import('./check-request.ts');
  const { createValidationProxy, SUMMARY_PATH } = await import('./create-proxy.ts');
  const checkRequest = await createRequestChecker();
  const { server, summary } = createValidationProxy({ upstream: options.upstream, checkRequest, log: (line) => console.log(line) });
  let port: number;
  try {
    port = (await listen(server, options.port, options.host)).port;
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  console.log(`Validation proxy listening on http://${shownHost}:${port}/v1, forwarding to ${options.upstream.href} (summary: GET ${SUMMARY_PATH}, or Ctrl-C)`);
  const stop = (): void => {
    console.log(summary.toText());
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
