/** Reading an upstream's variables: a base URL, a key. Unset is null (the adapter is off); a bad value stops start-up naming the variable. */
import { ConfigError } from '../config-error.ts';

/** An http(s) base URL without query or fragment, trailing slashes dropped; undefined when unset or empty. */
export function upstreamUrl(env: NodeJS.ProcessEnv, name: string, fallback?: string): string | undefined {
  const value = env[name]?.trim() || fallback;
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`${name} must be an http(s) URL without query or fragment, such as http://127.0.0.1:8080; got ${JSON.stringify(redacted(value))}`);
  }
  return value.replace(/\/+$/, '');
}

/** A secret (API key); undefined when unset or empty; refused when it has spaces or line breaks (a paste gone wrong). */
export function upstreamKey(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  if (/\s/.test(value)) throw new ConfigError(`${name} must be one API key without spaces or line breaks`);
  return value;
}

/** Where an adapter that needs a credential is: its key's and its URL's variables, the official URL, and what the key is called in a message. */
export interface CredentialedUpstream {
  keyName: string;
  urlName: string;
  defaultUrl: string;
  /** How the refusal of a URL without a key ends, such as `Brave Search needs its key`. */
  needs: string;
}

/**
 * The URL and key of an adapter that needs a credential: null when the key is unset (the adapter
 * is off); a ConfigError naming the variable for a bad value, or for a URL set without a key.
 */
export function credentialedUpstream(env: NodeJS.ProcessEnv, upstream: CredentialedUpstream): { url: string; key: string } | null {
  const key = upstreamKey(env, upstream.keyName);
  const url = upstreamUrl(env, upstream.urlName, upstream.defaultUrl)!;
  if (key === undefined) {
    if (env[upstream.urlName]?.trim()) throw new ConfigError(`${upstream.urlName} is set but ${upstream.keyName} is not: ${upstream.needs}`);
    return null;
  }
  return { url, key };
}

/** A URL with its password hidden, for a message. */
function redacted(value: string): string {
  return value.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}
