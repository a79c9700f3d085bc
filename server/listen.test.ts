/** Binding HOST:PORT: resolved only once bound; each failure one line naming PORT or HOST. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen, ListenError, listenFailure } from './listen.ts';

function failure(code: string, message = `listen ${code}`): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

describe('listen', () => {
  it('resolves with the bound address once the socket is bound', async () => {
    const server = createServer();
    const address = await listen(server, 0, '127.0.0.1');
    expect(server.listening).toBe(true);
    expect(address).toMatchObject({ address: '127.0.0.1', port: (server.address() as AddressInfo).port });
    server.close();
  });

  it('a port already in use rejects with a ListenError naming PORT', async () => {
    const taken = createServer();
    const { port } = await listen(taken, 0, '127.0.0.1');
    const second = createServer();
    await expect(listen(second, port, '127.0.0.1')).rejects.toEqual(new ListenError(`Cannot listen on 127.0.0.1:${port}: the port is already in use (PORT=${port}). Choose another PORT or stop the process using it.`));
    expect(second.listening).toBe(false);
    taken.close();
  });

  it.each([
    { code: 'EACCES', host: '0.0.0.0', port: 80, line: 'Cannot listen on 0.0.0.0:80: permission denied (PORT=80); ports below 1024 need privileges. Choose a PORT from 1024 up.' },
    { code: 'EADDRNOTAVAIL', host: '192.0.2.1', port: 3000, line: "Cannot listen on 192.0.2.1:3000: the address is not one of this machine's (HOST=192.0.2.1). Choose a HOST this machine has, such as 127.0.0.1 or 0.0.0.0." },
    { code: 'ENOTFOUND', host: 'api.nowhere.example', port: 3000, line: 'Cannot listen on api.nowhere.example:3000: the host name does not resolve (HOST=api.nowhere.example). Choose an IP address, such as 127.0.0.1 or 0.0.0.0, or a name this machine resolves.' },
    { code: 'EAI_AGAIN', host: 'api.nowhere.example', port: 3000, line: 'Cannot listen on api.nowhere.example:3000: the host name does not resolve (HOST=api.nowhere.example). Choose an IP address, such as 127.0.0.1 or 0.0.0.0, or a name this machine resolves.' },
    { code: 'EAFNOSUPPORT', host: '::1', port: 3000, line: 'Cannot listen on [::1]:3000: this machine does not support the address family of HOST=::1 (IPv6 disabled?). Choose an IPv4 address, such as 127.0.0.1.' },
    { code: 'EMFILE', host: '127.0.0.1', port: 3000, line: 'Cannot listen on 127.0.0.1:3000: listen EMFILE (HOST=127.0.0.1, PORT=3000).' },
  ])('$code says what to change in one line', ({ code, host, port, line }) => {
    expect(listenFailure(failure(code), host, port)).toBe(line);
  });
});
