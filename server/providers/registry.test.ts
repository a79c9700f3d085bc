/** The registry alone chooses the provider of an operation for a key, for calls, jobs and monitor checks alike. */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { ProviderRegistry } from './registry.ts';
import { sandboxProvider } from './sandbox/index.ts';
import type { DataProvider } from './types.ts';

const fetchOnly: DataProvider = { name: 'search', fetch: async () => ({}) };
const withPages: DataProvider = { ...fetchOnly, name: 'pages', pages: sandboxProvider.pages! };
const withAgent: DataProvider = { ...fetchOnly, name: 'agent', agent: sandboxProvider.agent!, judge: sandboxProvider.judge! };
const registry = new ProviderRegistry(
  { searchWeb: 'search', scrapeWebPage: 'pages', crawlWebsite: 'pages', batchScrapeWebPages: 'search', extractWebData: 'agent', runWebAgent: 'agent' },
  { search: fetchOnly, pages: withPages, agent: withAgent },
  sandboxProvider,
);
const sandbox = { sandbox: true };
const live = { sandbox: false };

describe('the provider registry', () => {
  it.each([
    { key: sandbox, operationId: 'searchWeb', provider: 'sandbox' },
    { key: sandbox, operationId: 'getPriceHistory', provider: 'sandbox' },
    { key: live, operationId: 'searchWeb', provider: 'search' },
    { key: live, operationId: 'crawlWebsite', provider: 'pages' },
    { key: live, operationId: 'extractWebData', provider: 'agent' },
    { key: live, operationId: 'getPriceHistory', provider: undefined },
  ] as const)('serves $operationId for a sandbox key ($key.sandbox) from $provider', ({ key, operationId, provider }) => {
    expect(registry.providerFor(key, operationId)?.name).toBe(provider);
  });

  it.each([
    { key: sandbox, operationId: 'crawlWebsite', runs: true },
    { key: sandbox, operationId: 'runWebAgent', runs: true },
    { key: live, operationId: 'crawlWebsite', runs: true },
    { key: live, operationId: 'batchScrapeWebPages', runs: false },
    { key: live, operationId: 'runWebAgent', runs: true },
  ] as const)('runs $operationId jobs for a sandbox key ($key.sandbox): $runs, as its provider has pages or an agent', ({ key, operationId, runs }) => {
    expect(registry.runsJobs(key, operationId)).toBe(runs);
  });

  it('runs no live agent job without a page source routed under scrapeWebPage to read its pages from', () => {
    const withoutPages = new ProviderRegistry({ runWebAgent: 'agent' }, { agent: withAgent }, sandboxProvider);
    expect(withoutPages.runsJobs(live, 'runWebAgent')).toBe(false);
  });

  it('refuses a route to a provider that does not exist, naming the route and the known providers', () => {
    expect(() => new ProviderRegistry({ searchWeb: 'searxng' }, { web: fetchOnly }, sandboxProvider)).toThrow(new ConfigError('PROVIDER_ROUTES routes searchWeb to "searxng", which is not a provider (known: web)'));
  });

  it('liveServing names the provider of each operation for a live key, null where it answers 503 (a job route whose provider lacks pages)', () => {
    expect(registry.liveServing()).toMatchObject({ searchWeb: 'search', crawlWebsite: 'pages', batchScrapeWebPages: null, extractWebData: 'agent', runWebAgent: 'agent', getPriceHistory: null });
  });

  it('close() closes every provider that has connections, even when one fails to close', async () => {
    const closed: string[] = [];
    const closing = (name: string, fails = false): DataProvider => ({ ...fetchOnly, name, close: async () => {
      closed.push(name);
      if (fails) throw new Error('already closed');
    } });
    await new ProviderRegistry({}, { a: closing('a', true), b: closing('b'), c: fetchOnly }, sandboxProvider).close();
    expect(closed).toEqual(['a', 'b']);
  });
});
