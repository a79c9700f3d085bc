import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { upstreamKey, upstreamUrl } from './upstream-config.ts';

describe('upstreamUrl', () => {
  const cases: { name: string; value: string | undefined; fallback?: string; result?: string; error?: string }[] = [
    { name: 'unset is undefined', value: undefined, result: undefined },
    { name: 'empty is undefined', value: '  ', result: undefined },
    { name: 'unset takes the fallback', value: undefined, fallback: 'https://api.search.brave.com', result: 'https://api.search.brave.com' },
    { name: 'a loopback URL is kept, trailing slash dropped', value: 'http://127.0.0.1:8888/', result: 'http://127.0.0.1:8888' },
    { name: 'a path is kept', value: 'http://intranet/searxng/', result: 'http://intranet/searxng' },
    { name: 'not a URL names the variable', value: 'searxng:8080', error: 'SEARXNG_URL must be an http(s) URL without query or fragment, such as http://127.0.0.1:8080; got "searxng:8080"' },
    { name: 'a query is refused', value: 'http://searx/?format=json', error: 'SEARXNG_URL must be an http(s) URL without query or fragment' },
    { name: 'a password is never repeated in the message', value: 'ftp://user:hunter2@searx/', error: 'got "ftp://user:***@searx/"' },
  ];
  it.each(cases)('$name', ({ value, fallback, result, error }) => {
    const read = () => upstreamUrl({ SEARXNG_URL: value }, 'SEARXNG_URL', fallback);
    if (error === undefined) expect(read()).toBe(result);
    else {
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(error);
    }
  });
});

describe('upstreamKey', () => {
  it('is undefined when unset, the trimmed key when set, and refused with spaces, naming the variable', () => {
    expect(upstreamKey({}, 'BRAVE_SEARCH_API_KEY')).toBeUndefined();
    expect(upstreamKey({ BRAVE_SEARCH_API_KEY: ' BSAkey123 ' }, 'BRAVE_SEARCH_API_KEY')).toBe('BSAkey123');
    expect(() => upstreamKey({ BRAVE_SEARCH_API_KEY: 'BSA key' }, 'BRAVE_SEARCH_API_KEY')).toThrow('BRAVE_SEARCH_API_KEY must be one API key without spaces or line breaks');
  });
});
