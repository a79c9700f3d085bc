/** A loopback origin with nothing listening on it: a port taken from the system, then released. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function closedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
