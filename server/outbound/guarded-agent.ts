/**
 * An undici dispatcher whose every connection goes to an address checked at connect time: the DNS
 * answer is resolved once, checked, and the connection made to that very address, so a name
 * that changes its answer between check and connect (DNS rebinding) cannot reach a private one.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { isPublicAddress, type AddressPolicy } from './address-policy.ts';

/** The code the connection error carries when an address is refused; the fetcher turns it into url_not_allowed. */
export const NON_PUBLIC_ADDRESS = 'ERR_NON_PUBLIC_ADDRESS';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves a host name to all its addresses (node:dns `lookup` with `all: true`), injectable for tests. */
export type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

function guardedLookup(policy: AddressPolicy, resolve: Resolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = policy.allowPrivateNetwork ? [] : addresses.filter((entry) => !isPublicAddress(entry.address));
      if (refused.length > 0 || addresses.length === 0) {
        const failure: NodeJS.ErrnoException = new Error(`${hostname} resolves to a non-public address (${refused.map((entry) => entry.address).join(', ')})`);
        failure.code = NON_PUBLIC_ADDRESS;
        return callback(failure, '');
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** A connection pool that only connects to addresses the policy allows. */
export function guardedAgent(policy: AddressPolicy, resolve: Resolver = systemResolver): Agent {
  return new Agent({ connect: { lookup: guardedLookup(policy, resolve) as never, timeout: 10_000 }, keepAliveTimeout: 4_000 });
}
