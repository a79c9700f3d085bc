/** `npm run mock`: serves the Prism mock of the contract at http://127.0.0.1:4010/v1 (PORT, HOST override; CORS_ORIGINS allows browser calls). */
import { enableCompileCache } from 'node:module';

// Prism is a large dependency tree: Node's on-disk compile cache makes every start after the first faster.
enableCompileCache();
const { contractPath } = await import('../lib/contract-document.ts');
const { createMockServer } = await import('./create-mock-server.ts');
const { createPrismEngine } = await import('./prism-engine.ts');
const { parseCorsOrigins } = await import('../lib/cors.ts');
const { logLines } = await import('../lib/log-lines.ts');

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 4010;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer from 0 to 65535, got "${value}"`);
    process.exit(2);
  }
  return port;
}

const port = readPort(process.env.PORT);
const host = process.env.HOST || '127.0.0.1';
let corsOrigins;
try {
  corsOrigins = parseCorsOrigins(process.env.CORS_ORIGINS);
} catch (error) {
  console.error(`Configuration error: ${(error as Error).message}`);
  process.exit(2);
}
const engine = await createPrismEngine(contractPath);
const requestLog = logLines((text) => process.stdout.write(text));
const server = createMockServer({ engine, log: requestLog.log, corsOrigins });

server.listen(port, host, () => {
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  console.log(`Mock of the contract listening on http://${host}:${boundPort}/v1 (Prefer: code=…, example=…, dynamic=true)`);
});

function stop(signal: string): void {
  requestLog.flush();
  console.log(`${signal} received: closing the mock`);
  const exit = () => {
    requestLog.flush();
    process.exit(0);
  };
  server.close(exit);
  server.closeIdleConnections();
  setTimeout(exit, 5000).unref();
}
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
