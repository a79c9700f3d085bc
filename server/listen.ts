/**
 * Binds the HTTP server to HOST:PORT and resolves only once the socket is bound; a failure to bind
 * becomes a ListenError whose one-line message names PORT or HOST and says what to do.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class ListenError extends Error {}

/** The one line an operator reads when `host:port` cannot be bound, by the system's error code. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `Cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${where}: the port is already in use (PORT=${port}). Choose another PORT or stop the process using it.`;
    case 'EACCES':
      return `${where}: permission denied (PORT=${port}); ports below 1024 need privileges. Choose a PORT from 1024 up.`;
    case 'EADDRNOTAVAIL':
      return `${where}: the address is not one of this machine's (HOST=${host}). Choose a HOST this machine has, such as 127.0.0.1 or 0.0.0.0.`;
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
    case 'EAI_AGAIN':
      return `${where}: the host name does not resolve (HOST=${host}). Choose an IP address, such as 127.0.0.1 or 0.0.0.0, or a name this machine resolves.`;
    case 'EAFNOSUPPORT':
      return `${where}: this machine does not support the address family of HOST=${host} (IPv6 disabled?). Choose an IPv4 address, such as 127.0.0.1.`;
    default:
      return `${where}: ${error.message} (HOST=${host}, PORT=${port}).`;
  }
}

/** Listens on `host:port`; resolves with the bound address, or rejects with a ListenError. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(new ListenError(listenFailure(error, host, port)));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}
