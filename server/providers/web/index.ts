/**
 * The built-in web provider for live keys: it fetches pages itself over HTTP (undici), safely
 * (address policy, bounded time and size), and converts them to the contract's documents.
 * Options that need a capability this deployment lacks answer 503 `capability_unavailable`.
 */
import type { DataProvider, ProviderCall } from '../types.ts';
import { ProviderError } from '../types.ts';
import type { AddressPolicy } from '../../outbound/address-policy.ts';
import { fetchPage, statusFailure, DEFAULT_LIMITS, type FetchLimits } from '../../outbound/fetch-page.ts';
import type { HeadlessBrowser } from './browser.ts';
import type { Agent } from 'undici';
import type { ConversionPool } from './conversion-pool.ts';
import { mapSite } from './map-site.ts';
import { isPdf } from './pdf-to-document.ts';
import { webPageSource } from './page-source.ts';

export interface WebProviderOptions {
  policy: AddressPolicy;
  /** The guarded agent (server/outbound/) every page is fetched over: built once, in main.ts. */
  agent: Agent;
  /** The conversion pool (HTML and PDF → document on worker threads): built once, in main.ts. */
  pool: ConversionPool;
  /** Headless Chromium for `wait_for` and screenshots; without it those answer 503. */
  browser?: HeadlessBrowser;
  limits?: Partial<FetchLimits>;
}

const DEFAULT_FORMATS = 'markdown,metadata';

function unavailable(capability: string): ProviderError {
  return new ProviderError('capability_unavailable', `${capability}; no credits were used.`);
}

function needsBrowser(query: Record<string, unknown>, formats: string[]): boolean {
  return Number(query.wait_for ?? 0) > 0 || formats.includes('screenshot');
}

function refuseMissingCapabilities(query: Record<string, unknown>, formats: string[], browser: HeadlessBrowser | undefined): void {
  if (!browser && Number(query.wait_for ?? 0) > 0) throw unavailable('wait_for needs a headless browser, and none is configured (CHROMIUM_PATH)');
  if (!browser && formats.includes('screenshot')) throw unavailable('The screenshot format needs a headless browser, and none is configured (CHROMIUM_PATH)');
  if (query.proxy === 'enhanced') throw unavailable('proxy enhanced needs a proxy network, and none is configured');
  if (query.location_country !== undefined) throw unavailable('location_country needs a proxy network, and none is configured');
}

/** The web provider; it serves `scrapeWebPage` and `mapWebsite`, and the pages of crawls, batch scrapes and monitor checks. */
export function createWebProvider(options: WebProviderOptions): DataProvider {
  const { agent, pool } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  return {
    name: 'web',
    pages: webPageSource({ agent, policy: options.policy, limits }, pool),
    async fetch(call: ProviderCall) {
      const { query } = call;
      if (call.operationId === 'mapWebsite') {
        if (query.goal !== undefined) throw unavailable('goal needs a ranking provider, and none is configured');
        return mapSite({
          url: String(query.url),
          search: query.search as string | undefined,
          limit: Number(query.limit ?? 1000),
          sitemap: (query.sitemap as 'include' | 'skip' | 'only' | undefined) ?? 'include',
          includeSubdomains: query.include_subdomains === true,
          ignoreQueryParameters: query.ignore_query_parameters !== false,
        }, { agent, policy: options.policy, limits, signal: call.signal }, pool);
      }
      if (call.operationId !== 'scrapeWebPage') throw new ProviderError('provider_unavailable', `The web provider does not serve ${call.operationId} yet; no credits were used.`);
      const formats = String(query.formats ?? DEFAULT_FORMATS).split(',');
      refuseMissingCapabilities(query, formats, options.browser);
      const timeoutMs = Number(query.timeout ?? limits.timeoutMs);
      const conversion = {
        formats,
        onlyMainContent: query.only_main_content !== false,
        includeTags: query.include_tags as string | undefined,
        excludeTags: query.exclude_tags as string | undefined,
        removeBase64Images: query.remove_base64_images !== false,
        blockAds: query.block_ads !== false,
      };
      if (options.browser && needsBrowser(query, formats)) {
        const rendered = await options.browser.render(String(query.url), {
          waitForMs: Number(query.wait_for ?? 0),
          timeoutMs,
          mobile: query.mobile === true,
          screenshot: formats.includes('screenshot') ? (query.screenshot_full_page === true ? 'full_page' : 'viewport') : 'none',
        });
        const failure = statusFailure(rendered);
        if (failure) throw failure;
        const { screenshot, ...page } = rendered;
        const document = await pool.html(page, conversion, timeoutMs);
        return screenshot ? { ...document, screenshot } : document;
      }
      const page = await fetchPage(String(query.url), {
        agent,
        policy: options.policy,
        limits: { ...limits, timeoutMs },
        mobile: query.mobile === true,
        signal: call.signal,
      });
      const failure = statusFailure(page);
      if (failure) throw failure;
      if (isPdf(page)) {
        return pool.pdf(page, formats, query.pdf_parse !== false, timeoutMs);
      }
      if (page.contentType && !/html|xml/.test(page.contentType)) {
        const text = page.body.toString('utf8');
        return pool.html({ ...page, body: Buffer.from(`<html><body><pre>${text.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</pre></body></html>`) }, { formats, onlyMainContent: false, removeBase64Images: true, blockAds: false }, timeoutMs);
      }
      return pool.html(page, conversion, timeoutMs);
    },
  };
}
