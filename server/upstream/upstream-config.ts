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

/** A URL with its password hidden, for a message. */
function redacted(value: string): string {
  return value.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}
