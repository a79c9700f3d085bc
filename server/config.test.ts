/** Every environment variable of the server: its default, a good value, and a bad one refused by name. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig, type ServerConfig } from './config.ts';

let folder: string;
beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), 'config-'))));
afterAll(() => rm(folder, { recursive: true, force: true }));

/** `with`: the other variables set beside it (an adapter's variables work together). */
type Case = { value: string; field: keyof ServerConfig; expected: unknown; with?: Record<string, string> };
type BadCase = { value: string; message: string; with?: Record<string, string> };

const NO_UPSTREAMS = { searxng: null, brave: null, firecrawl: null, openai: null, yahoo: null, twelvedata: null, tiktok: null, meetup: null, x: null, fxtwitter: null };
const LOCAL_MODEL = { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'qwen2.5-7b-instruct' };

/** Per variable: what it sets, from a good value, and what a bad value says. */
const variables: Record<string, { good: Case[]; bad: BadCase[] }> = {
  PORT: {
    good: [{ value: '', field: 'port', expected: 3000 }, { value: '0', field: 'port', expected: 0 }, { value: '8080', field: 'port', expected: 8080 }],
    bad: [{ value: 'http', message: 'PORT must be an integer from 0 to 65535, got "http"' }, { value: '70000', message: 'PORT must be an integer from 0 to 65535, got "70000"' }],
  },
  HOST: {
    good: [
      { value: '', field: 'host', expected: '127.0.0.1' },
      { value: '0.0.0.0', field: 'host', expected: '0.0.0.0' },
      { value: '::', field: 'host', expected: '::' },
      { value: 'localhost', field: 'host', expected: 'localhost' },
      { value: 'api.internal.example', field: 'host', expected: 'api.internal.example' },
    ],
    bad: [
      { value: '999.1.1.1', message: 'HOST must be an IP address of this machine (such as 127.0.0.1, 0.0.0.0 or ::) or a host name, got "999.1.1.1"' },
      { value: 'http://localhost', message: 'HOST must be an IP address of this machine (such as 127.0.0.1, 0.0.0.0 or ::) or a host name, got "http://localhost"' },
      { value: '[::1]', message: 'HOST must be an IP address of this machine (such as 127.0.0.1, 0.0.0.0 or ::) or a host name, got "[::1]"' },
    ],
  },
  DATABASE_URL: {
    good: [
      { value: '', field: 'databaseUrl', expected: './data/wsdq.sqlite' },
      { value: ':memory:', field: 'databaseUrl', expected: ':memory:' },
      { value: 'state/service.sqlite', field: 'databaseUrl', expected: 'state/service.sqlite' },
      { value: 'postgres://app:secret@db.internal:5432/wsdq', field: 'databaseUrl', expected: 'postgres://app:secret@db.internal:5432/wsdq' },
      { value: 'postgresql://app@db.internal/wsdq?sslmode=require', field: 'databaseUrl', expected: 'postgresql://app@db.internal/wsdq?sslmode=require' },
      { value: 'postgres://wsdq@/wsdq?host=/run/postgresql', field: 'databaseUrl', expected: 'postgres://wsdq@/wsdq?host=/run/postgresql' },
    ],
    bad: [
      { value: 'mysql://app:secret@db/wsdq', message: 'DATABASE_URL must be a SQLite file path, :memory:, or a postgres:// or postgresql:// URL, got a mysql: URL' },
      { value: 'sqlite:data.db', message: 'DATABASE_URL must be a SQLite file path, :memory:, or a postgres:// or postgresql:// URL, got a sqlite: URL' },
      { value: 'postgres://app:secret@db.internal:5432', message: 'DATABASE_URL is not a PostgreSQL URL the service can use: it names no database (such as postgres://user@host/wsdq), got "postgres://app:***@db.internal:5432"' },
      { value: 'postgres://app:secret@db.internal:port/wsdq', message: 'DATABASE_URL is not a PostgreSQL URL the service can use: it does not parse (libpq\'s forms: postgres://user:password@host:port/database, or postgres://user@/database?host=/socket/folder), got "postgres://app:***@db.internal:port/wsdq"' },
      { value: '<folder>', message: 'DATABASE_URL must be a file path, got the directory "<folder>" (such as <folder>/wsdq.sqlite)' },
    ],
  },
  RATE_LIMIT: {
    good: [{ value: '', field: 'rateLimit', expected: { requests: 120, windowSeconds: 60 } }, { value: '10/1', field: 'rateLimit', expected: { requests: 10, windowSeconds: 1 } }],
    bad: [{ value: 'lots', message: 'RATE_LIMIT must be REQUESTS/SECONDS with both at least 1, such as 120/60, got "lots"' }, { value: '0/60', message: 'RATE_LIMIT must be REQUESTS/SECONDS with both at least 1, such as 120/60, got "0/60"' }],
  },
  PROVIDER_ROUTES: {
    good: [
      { value: '', field: 'providerRoutes', expected: {} },
      { value: '{"searchWeb":"brave","runWebAgent":"openai"}', field: 'providerRoutes', expected: { searchWeb: 'brave', runWebAgent: 'openai' } },
    ],
    bad: [
      { value: '{"fooBar":"web"}', message: 'PROVIDER_ROUTES has "fooBar", which is not an operation a provider serves (operations: scrapeWebPage, searchWeb, mapWebsite, extractWebData, listCollectionVideos, getPriceHistory, getMicroblogPost, listSocialEvents, crawlWebsite, batchScrapeWebPages, runWebAgent)' },
      { value: '{"listJobs":"web"}', message: 'PROVIDER_ROUTES has "listJobs", which is not an operation a provider serves' },
      { value: '{"searchWeb":3}', message: 'PROVIDER_ROUTES routes searchWeb to 3; a route is a provider\'s name, such as "web"' },
      { value: '["web"]', message: 'PROVIDER_ROUTES must be a JSON object of operationId to provider name, got "["web"]"' },
      { value: 'web', message: 'PROVIDER_ROUTES must be a JSON object of operationId to provider name, got "web"' },
    ],
  },
  ALLOW_PRIVATE_NETWORK: {
    good: [{ value: '', field: 'allowPrivateNetwork', expected: false }, { value: 'true', field: 'allowPrivateNetwork', expected: true }, { value: 'false', field: 'allowPrivateNetwork', expected: false }],
    bad: [{ value: 'yes', message: 'ALLOW_PRIVATE_NETWORK must be true or false, got "yes"' }],
  },
  CHROMIUM_PATH: {
    good: [{ value: '', field: 'chromiumPath', expected: null }, { value: process.execPath, field: 'chromiumPath', expected: process.execPath }],
    bad: [{ value: '/nowhere/chromium', message: 'CHROMIUM_PATH must name an executable file, got "/nowhere/chromium"' }],
  },
  NODE_ENV: {
    good: [
      { value: '', field: 'checkResponseHeaders', expected: true },
      { value: 'development', field: 'checkResponseHeaders', expected: true },
      { value: 'test', field: 'checkResponseHeaders', expected: true },
      { value: 'production', field: 'checkResponseHeaders', expected: false },
    ],
    bad: [{ value: 'prod', message: 'NODE_ENV must be one of production, development, test, got "prod"' }],
  },
  LOG_LEVEL: {
    good: [{ value: '', field: 'logLevel', expected: 'info' }, { value: 'debug', field: 'logLevel', expected: 'debug' }, { value: 'silent', field: 'logLevel', expected: 'silent' }],
    bad: [{ value: 'loud', message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"' }],
  },
  JOB_TICK_MS: {
    good: [{ value: '', field: 'jobTickMs', expected: 100 }, { value: '10', field: 'jobTickMs', expected: 10 }],
    bad: [{ value: '5', message: 'JOB_TICK_MS must be an integer from 10 to 60000, got "5"' }, { value: 'fast', message: 'JOB_TICK_MS must be an integer from 10 to 60000, got "fast"' }],
  },
  LEASE_MS: {
    good: [{ value: '', field: 'leaseMs', expected: 30_000 }, { value: '500', field: 'leaseMs', expected: 500 }],
    bad: [{ value: '100', message: 'LEASE_MS must be an integer from 500 to 600000, got "100"' }],
  },
  CORS_ORIGINS: {
    good: [{ value: '', field: 'corsOrigins', expected: null }, { value: '*', field: 'corsOrigins', expected: '*' }, { value: 'https://app.example.com', field: 'corsOrigins', expected: ['https://app.example.com'] }],
    bad: [{ value: 'app.example.com/path', message: 'CORS_ORIGINS must be * or a comma-separated list of origins' }],
  },
  SEARXNG_URL: {
    good: [{ value: '', field: 'upstreams', expected: NO_UPSTREAMS }, { value: 'http://127.0.0.1:8888/', field: 'upstreams', expected: { ...NO_UPSTREAMS, searxng: { url: 'http://127.0.0.1:8888' } } }],
    bad: [{ value: '127.0.0.1:8888', message: 'SEARXNG_URL must be an http(s) URL without query or fragment' }],
  },
  MEETUP_ACCESS_TOKEN: {
    good: [{ value: 'mtp-token-1', field: 'upstreams', expected: { ...NO_UPSTREAMS, meetup: { url: 'https://api.meetup.com/gql-ext', accessToken: 'mtp-token-1' } } }],
    bad: [{ value: 'mtp token', message: 'MEETUP_ACCESS_TOKEN must be one API key without spaces or line breaks' }],
  },
  MEETUP_API_URL: {
    good: [{ value: 'http://10.0.0.5:9000/gql-ext', with: { MEETUP_ACCESS_TOKEN: 'mtp-token-1' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, meetup: { url: 'http://10.0.0.5:9000/gql-ext', accessToken: 'mtp-token-1' } } }],
    bad: [{ value: 'http://10.0.0.5:9000/gql-ext', message: 'MEETUP_API_URL is set but MEETUP_ACCESS_TOKEN is not' }],
  },
  BRAVE_SEARCH_API_KEY: {
    good: [{ value: 'BSAkey123', field: 'upstreams', expected: { ...NO_UPSTREAMS, brave: { url: 'https://api.search.brave.com', apiKey: 'BSAkey123' } } }],
    bad: [{ value: 'BSA key', message: 'BRAVE_SEARCH_API_KEY must be one API key without spaces or line breaks' }],
  },
  BRAVE_SEARCH_URL: {
    good: [{ value: 'http://10.0.0.5:9000', with: { BRAVE_SEARCH_API_KEY: 'BSAkey123' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, brave: { url: 'http://10.0.0.5:9000', apiKey: 'BSAkey123' } } }],
    bad: [{ value: 'http://10.0.0.5:9000', message: 'BRAVE_SEARCH_URL is set but BRAVE_SEARCH_API_KEY is not' }],
  },
  FIRECRAWL_API_URL: {
    good: [{ value: 'http://127.0.0.1:3002', field: 'upstreams', expected: { ...NO_UPSTREAMS, firecrawl: { url: 'http://127.0.0.1:3002', apiKey: undefined } } }],
    bad: [{ value: 'ftp://firecrawl.internal', message: 'FIRECRAWL_API_URL must be an http(s) URL without query or fragment' }],
  },
  FIRECRAWL_API_KEY: {
    good: [{ value: 'fc-123', field: 'upstreams', expected: { ...NO_UPSTREAMS, firecrawl: { url: 'https://api.firecrawl.dev', apiKey: 'fc-123' } } }],
    bad: [{ value: 'fc 123', message: 'FIRECRAWL_API_KEY must be one API key without spaces or line breaks' }],
  },
  YAHOO_FINANCE_URL: {
    good: [
      { value: '', field: 'upstreams', expected: NO_UPSTREAMS },
      { value: 'http://127.0.0.1:9100/', field: 'upstreams', expected: { ...NO_UPSTREAMS, yahoo: { url: 'http://127.0.0.1:9100' } } },
      { value: '', with: { PROVIDER_ROUTES: '{"getPriceHistory":"yahoo"}' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, yahoo: { url: 'https://query1.finance.yahoo.com' } } },
    ],
    bad: [{ value: 'query1.finance.yahoo.com', message: 'YAHOO_FINANCE_URL must be an http(s) URL without query or fragment' }],
  },
  TWELVEDATA_API_KEY: {
    good: [{ value: 'td123', field: 'upstreams', expected: { ...NO_UPSTREAMS, twelvedata: { url: 'https://api.twelvedata.com', apiKey: 'td123' } } }],
    bad: [{ value: 'td 123', message: 'TWELVEDATA_API_KEY must be one API key without spaces or line breaks' }],
  },
  TWELVEDATA_URL: {
    good: [{ value: 'http://10.0.0.6:9200', with: { TWELVEDATA_API_KEY: 'td123' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, twelvedata: { url: 'http://10.0.0.6:9200', apiKey: 'td123' } } }],
    bad: [{ value: 'http://10.0.0.6:9200', message: 'TWELVEDATA_URL is set but TWELVEDATA_API_KEY is not' }],
  },
  OPENAI_BASE_URL: {
    good: [{ value: 'http://127.0.0.1:8000/v1', with: { OPENAI_MODEL: 'qwen2.5-7b-instruct' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, openai: { baseUrl: 'http://127.0.0.1:8000/v1', apiKey: null, model: 'qwen2.5-7b-instruct' } } }],
    bad: [{ value: 'http://127.0.0.1:8000/v1/chat/completions', with: { OPENAI_MODEL: 'qwen2.5-7b-instruct' }, message: 'OPENAI_BASE_URL must be the base URL, the part before /chat/completions' }],
  },
  OPENAI_API_KEY: {
    good: [{ value: 'sk-test', with: { OPENAI_MODEL: 'gpt-4o-mini' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, openai: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test', model: 'gpt-4o-mini' } } }],
    bad: [{ value: 'sk test', with: LOCAL_MODEL, message: 'OPENAI_API_KEY must be one API key without spaces or line breaks' }],
  },
  OPENAI_MODEL: {
    good: [{ value: 'llama3.2', with: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, openai: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: null, model: 'llama3.2' } } }],
    bad: [{ value: '', with: { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }, message: 'OPENAI_MODEL must name the model to call' }],
  },
  TIKTOK_URL: {
    good: [
      { value: '', field: 'upstreams', expected: NO_UPSTREAMS },
      { value: 'http://127.0.0.1:9300/', field: 'upstreams', expected: { ...NO_UPSTREAMS, tiktok: { url: 'http://127.0.0.1:9300', cookie: undefined } } },
      { value: '', with: { PROVIDER_ROUTES: '{"listCollectionVideos":"tiktok"}' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, tiktok: { url: 'https://www.tiktok.com', cookie: undefined } } },
    ],
    bad: [{ value: 'www.tiktok.com', message: 'TIKTOK_URL must be an http(s) URL without query or fragment' }],
  },
  TIKTOK_COOKIE: {
    good: [{ value: 'sessionid=abc123; tt_csrf_token=xyz', with: { TIKTOK_URL: 'https://www.tiktok.com' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, tiktok: { url: 'https://www.tiktok.com', cookie: 'sessionid=abc123; tt_csrf_token=xyz' } } }],
    bad: [
      { value: 'sessionid=abc123', message: 'TIKTOK_COOKIE is set but the tiktok adapter is off' },
      { value: 'sessionid=abc123\nX: 1', with: { TIKTOK_URL: 'https://www.tiktok.com' }, message: 'TIKTOK_COOKIE must be one Cookie header value' },
    ],
  },
  X_BEARER_TOKEN: {
    good: [{ value: 'AAAAx-bearer', field: 'upstreams', expected: { ...NO_UPSTREAMS, x: { url: 'https://api.x.com', bearerToken: 'AAAAx-bearer' } } }],
    bad: [{ value: 'AAAA x', message: 'X_BEARER_TOKEN must be one API key without spaces or line breaks' }],
  },
  X_API_URL: {
    good: [{ value: 'http://127.0.0.1:9100/', with: { X_BEARER_TOKEN: 'AAAAx-bearer' }, field: 'upstreams', expected: { ...NO_UPSTREAMS, x: { url: 'http://127.0.0.1:9100', bearerToken: 'AAAAx-bearer' } } }],
    bad: [{ value: 'http://127.0.0.1:9100', message: 'X_API_URL is set but X_BEARER_TOKEN is not' }],
  },
  FXTWITTER_URL: {
    good: [{ value: '', field: 'upstreams', expected: NO_UPSTREAMS }, { value: 'https://api.fxtwitter.com', field: 'upstreams', expected: { ...NO_UPSTREAMS, fxtwitter: { url: 'https://api.fxtwitter.com' } } }],
    bad: [{ value: 'api.fxtwitter.com', message: 'FXTWITTER_URL must be an http(s) URL without query or fragment' }],
  },
  PUBLIC_BASE_URL: {
    good: [{ value: '', field: 'publicBaseUrl', expected: null }, { value: 'https://api.example.com/', field: 'publicBaseUrl', expected: 'https://api.example.com' }],
    bad: [{ value: 'api.example.com', message: 'PUBLIC_BASE_URL must be the http or https URL under which /v1 and /docs are served, such as https://api.example.com, got "api.example.com"' }],
  },
};

const withFolder = (text: string) => text.replaceAll('<folder>', folder);
const goodCases = Object.entries(variables).flatMap(([name, { good }]) => good.map((item) => ({ name, ...item })));
const badCases = Object.entries(variables).flatMap(([name, { bad }]) => bad.map((item) => ({ name, ...item })));

describe('the configuration', () => {
  it('reads exactly the variables this table covers', () => {
    const read = new Set<string>();
    readConfig(new Proxy({}, { get: (_, name) => void read.add(String(name)) }));
    expect([...read].sort()).toEqual(Object.keys(variables).sort());
  });

  it('documents every variable in server/README.md', async () => {
    const readme = await readFile('server/README.md', 'utf8');
    for (const name of Object.keys(variables)) expect(readme).toContain(`| \`${name}\` |`);
  });

  it.each(goodCases)('$name="$value" sets $field', ({ name, value, field, expected, with: others }) => {
    expect(readConfig({ ...others, [name]: value })[field]).toEqual(expected);
  });

  it.each(badCases)('$name="$value" is refused, naming the variable', ({ name, value, message, with: others }) => {
    let failure: unknown;
    try {
      readConfig({ ...others, [name]: withFolder(value) });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(withFolder(message));
    expect((failure as Error).message.startsWith(name)).toBe(true);
  });
});
