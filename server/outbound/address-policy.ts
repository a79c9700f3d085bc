/**
 * Which addresses user-given URLs may reach: public unicast only. Loopback, private, link-local
 * (cloud metadata included), carrier-grade NAT, multicast, reserved, documentation, IPv6 unique-local
 * and every IPv6 form that embeds one of them are refused, however the address is spelled:
 * WHATWG URL parsing normalises decimal, octal and hexadecimal IPv4 forms before this check.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ProviderError } from '../providers/types.ts';

/** Whether `address` is an IP literal in standard form (node:net's test, which does not throw and catch as ipaddr's parser does for a host name). */
function isIpLiteral(address: string): boolean {
  return isIP(address) !== 0;
}

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!isIpLiteral(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export interface AddressPolicy {
  /** `ALLOW_PRIVATE_NETWORK=true`: for intranet deployments and tests on loopback. */
  allowPrivateNetwork: boolean;
}

/** Parses a user-given URL and refuses what no fetch may reach: other schemes, credentials, non-public IP literals. */
export function checkedUrl(text: string, policy: AddressPolicy, parameter = 'url'): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProviderError('invalid_parameters', `Invalid parameters: ${parameter} is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError('url_not_allowed', `${parameter} must be an http or https URL, not ${url.protocol}`);
  if (url.username || url.password) throw new ProviderError('url_not_allowed', `${parameter} may not carry credentials.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivateNetwork) {
    if (isIpLiteral(host) && !isPublicAddress(host)) {
      throw new ProviderError('url_not_allowed', `${parameter} targets a non-public address (${host}): only public addresses may be fetched.`);
    }
    if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) {
      throw new ProviderError('url_not_allowed', `${parameter} targets a non-public host (${host}): only public addresses may be fetched.`);
    }
  }
  return url;
}
