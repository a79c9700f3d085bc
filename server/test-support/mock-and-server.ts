/**
 * The real server (sandbox key, in-memory database) and the real mock side by side on loopback
 * ports, for tests that show both answer alike.
 */
import type { AddressInfo } from 'node:net';
import type { CorsOrigins } from '../../lib/cors.ts';
import { contractPath } from '../../lib/contract-document.ts';
import { createMockServer, MOCK_BALANCE } from '../../mock/create-mock-server.ts';
import { createPrismEngine, type PrismEngine } from '../../mock/prism-engine.ts';
import { startTestServer } from './test-server.ts';

export interface RunningTarget {
  name: 'server' | 'mock';
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** A key the target accepts. */
  key: string;
  /** The balance the target reports for `key` now. */
  balance(): Promise<number>;
  close(): Promise<void>;
}

let engine: Promise<PrismEngine> | undefined;

export async function startMockAndServer(options: { corsOrigins?: CorsOrigins } = {}): Promise<RunningTarget[]> {
  const server = await startTestServer(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {});
  const { secret, id } = await server.key({ credits: 10_000 });
  engine ??= createPrismEngine(contractPath);
  const mock = createMockServer({ engine: await engine, log: () => {}, corsOrigins: options.corsOrigins ?? null });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  return [
    { name: 'server', baseUrl: server.baseUrl, key: secret, balance: () => server.stores.ledger.balance(id), close: () => server.close() },
    {
      name: 'mock',
      baseUrl: `http://127.0.0.1:${(mock.address() as AddressInfo).port}/v1`,
      key: 'any-key-the-mock-accepts',
      balance: async () => MOCK_BALANCE,
      close: () => {
        mock.closeAllConnections();
        return new Promise<void>((resolve) => mock.close(() => resolve()));
      },
    },
  ];
}
