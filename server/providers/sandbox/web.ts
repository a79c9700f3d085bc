/** The sandbox's web operations: scrape, search, map and extract, made up from the request alone. */
import type { components } from '../../../generated/types.ts';
import { extractNeedsSchemaOrPrompt, extractSchemaNotJson, extractSchemaRootNotObject } from '../../../lib/error-messages.ts';
import { ProviderError } from '../types.ts';
import { sampleFromSchema } from './json-schema-sample.ts';
import { failOnMagicId, failOnMagicUrl } from './magic-failures.ts';
import { boolParam, intParam, listParam, type Query, requestRandom, requiredParam, stringParam } from './request.ts';
import { SANDBOX_NOW, SeededRandom } from './seeded.ts';
import { buildPage, mainContentMarkdown, pageMetadata, renderDocument, type PageOptions } from './web-page.ts';
import { buildSite, rankLinks, type SiteLink } from './web-site.ts';

export { sandboxAgentAnswer, sandboxAgentPlan, sandboxCrawlUrls, sandboxDocument } from './web-jobs.ts';

type WebDocument = components['schemas']['WebDocument'];
type WebSearchResults = components['schemas']['WebSearchResults'];
type SearchResult = components['schemas']['SearchResult'];
type WebsiteMap = components['schemas']['WebsiteMap'];
type WebExtraction = components['schemas']['WebExtraction'];

const DAY = 86_400_000;
const TIME_RANGE_MS: Record<string, number> = { hour: 3_600_000, day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY };
const OLDEST_RESULT = Date.parse('2020-01-01T00:00:00Z');
const HOSTS_BY_SOURCE: Record<string, string[]> = {
  web: ['example.com', 'docs.example.com', 'example.org', 'blog.example.net', 'wiki.example.org', 'github.com', 'arxiv.org'],
  news: ['news.example.com', 'daily.example.org', 'times.example.net', 'wire.example.com'],
  images: ['photos.example.com', 'gallery.example.org', 'example.net'],
};
const HOST_BY_CATEGORY: Record<string, string> = { github: 'github.com', research: 'arxiv.org' };

/** `GET /web/scrape`: the page at `url` in exactly the formats asked for. */
export function sandboxScrape(query: Query): WebDocument {
  const url = requiredParam(query, 'url');
  failOnMagicUrl(url);
  const options: PageOptions = {
    onlyMainContent: boolParam(query, 'only_main_content', true),
    mobile: boolParam(query, 'mobile', false),
    screenshotFullPage: boolParam(query, 'screenshot_full_page', false),
    includeTags: listParam(query, 'include_tags', ''),
    excludeTags: listParam(query, 'exclude_tags', ''),
    pdfParse: boolParam(query, 'pdf_parse', true),
    blockAds: boolParam(query, 'block_ads', true),
    removeBase64Images: boolParam(query, 'remove_base64_images', true),
    locationCountry: stringParam(query, 'location_country'),
  };
  const page = buildPage(requestRandom('scrapeWebPage', query), url, options);
  return renderDocument(page, listParam(query, 'formats', 'markdown,metadata'), options);
}

/** `GET /web/search`: `limit` results per source, grouped in the order of `sources`, honouring the filters. */
export function sandboxSearch(query: Query): WebSearchResults {
  const text = requiredParam(query, 'query');
  failOnMagicId(text);
  const includeDomains = listParam(query, 'include_domains', '');
  const excludeDomains = listParam(query, 'exclude_domains', '');
  if (includeDomains.length > 0 && excludeDomains.length > 0) {
    throw new ProviderError('invalid_parameters', '`include_domains` and `exclude_domains` cannot be combined.');
  }
  const random = requestRandom('searchWeb', query);
  const limit = Math.min(Math.max(intParam(query, 'limit', 5), 1), 50);
  const categories = listParam(query, 'categories', '');
  const timeRange = TIME_RANGE_MS[stringParam(query, 'time_range') ?? ''];
  const place = stringParam(query, 'location') ?? stringParam(query, 'country')?.toUpperCase();
  const isExcluded = (host: string): boolean => excludeDomains.some((domain) => host === domain || host.endsWith(`.${domain}`));

  const results = listParam(query, 'sources', 'web').flatMap((source) => {
    const sourceResults = Array.from({ length: limit }, (): SearchResult => {
      const category = categories.length > 0 ? random.pick(categories) : undefined;
      const allowedHosts = (HOSTS_BY_SOURCE[source] ?? []).filter((host) => !isExcluded(host));
      const categoryHost = category === undefined ? undefined : HOST_BY_CATEGORY[category];
      const host = includeDomains.length > 0 ? random.pick(includeDomains)
        : categoryHost !== undefined && !isExcluded(categoryHost) ? categoryHost
        : allowedHosts.length > 0 ? random.pick(allowedHosts) : 'results.sandbox.example';
      const url = `https://${host}/${random.slug(random.int(1, 3))}${category === 'pdf' ? '.pdf' : ''}`;
      const dated = source === 'news' || timeRange !== undefined || (source === 'web' && random.chance(0.5));
      return {
        url,
        title: `${random.title(2, 4)}: ${text.slice(0, 80)}`,
        description: random.orNull(0.1, () => `${random.sentence(8, 16)}${place === undefined ? '' : ` Seen from ${place}.`}`),
        source: source as SearchResult['source'],
        position: 0,
        published_at: dated ? random.dateTime(timeRange === undefined ? OLDEST_RESULT : SANDBOX_NOW - timeRange, SANDBOX_NOW) : null,
        image_url: source === 'images' ? `https://${host}/images/${random.hex(16)}.jpg` : null,
        // As a live search: a result page that cannot be read (`https://a.0/…`, which no URL parser takes) leaves it null.
        markdown: boolParam(query, 'include_content', false) && URL.canParse(url) ? mainContentMarkdown(buildPage(new SeededRandom(`page:${url}`), url, { onlyMainContent: true })) : null,
      };
    });
    if (boolParam(query, 'sort_by_date', false)) sourceResults.sort(newestFirst);
    return sourceResults.map((result, index) => ({ ...result, position: index + 1 }));
  });
  return { query: text, results };
}

function newestFirst(a: SearchResult, b: SearchResult): number {
  if (a.published_at === b.published_at) return 0;
  if (a.published_at === null) return 1;
  if (b.published_at === null) return -1;
  return a.published_at < b.published_at ? 1 : -1;
}

/** `GET /web/map`: the links of the host of `url`, by `sitemap`, filtered by `search`, ranked by `goal`, cut at `limit`. */
export function sandboxMap(query: Query): WebsiteMap {
  const url = requiredParam(query, 'url');
  failOnMagicUrl(url);
  const sitemap = stringParam(query, 'sitemap') ?? 'include';
  const search = stringParam(query, 'search');
  const goal = stringParam(query, 'goal');
  const site = buildSite(url, {
    includeSubdomains: boolParam(query, 'include_subdomains', false),
    ignoreQueryParameters: boolParam(query, 'ignore_query_parameters', true),
    search,
  });
  const listed = [...site.filter((link) => link.inSitemap), ...site.filter((link) => !link.inSitemap)].filter((link) =>
    sitemap === 'only' ? link.inSitemap : sitemap === 'skip' ? link.foundOnPage : true);
  const visible = listed.map((link): SiteLink => (sitemap === 'only' ? { ...link, title: null, description: null } : link));
  const matching = search === undefined ? visible : visible.filter((link) => `${link.url} ${link.title ?? ''}`.toLowerCase().includes(search.toLowerCase()));
  const ranked = goal !== undefined ? rankLinks(matching, goal) : search !== undefined ? rankLinks(matching, search) : matching;
  const limit = Math.min(Math.max(intParam(query, 'limit', 1000), 1), 5000);
  return { url, links: ranked.slice(0, limit).map(({ url: linkUrl, title, description }) => ({ url: linkUrl, title, description })) };
}

/** `GET /web/extract`: an object following `schema` (its properties and their types), or `{answer}` for a `prompt`. */
export function sandboxExtract(query: Query): WebExtraction {
  const url = requiredParam(query, 'url');
  const schemaText = stringParam(query, 'schema');
  const prompt = stringParam(query, 'prompt');
  if ((schemaText === undefined) === (prompt === undefined)) {
    throw new ProviderError('invalid_parameters', extractNeedsSchemaOrPrompt());
  }
  failOnMagicUrl(url);
  const random = requestRandom('extractWebData', query);
  const page = buildPage(random, url, { onlyMainContent: boolParam(query, 'only_main_content', true) });
  const extracted = schemaText === undefined ? { answer: `${random.sentence(10, 20)} (from ${page.title})` } : sampleFromSchema(random, parseObjectSchema(schemaText));
  return { url, extracted: extracted as WebExtraction['extracted'], metadata: pageMetadata(page, url) };
}

function parseObjectSchema(text: string): Record<string, unknown> {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    throw new ProviderError('invalid_parameters', extractSchemaNotJson());
  }
  if (typeof schema !== 'object' || schema === null || (schema as { type?: unknown }).type !== 'object') {
    throw new ProviderError('invalid_parameters', extractSchemaRootNotObject());
  }
  return schema as Record<string, unknown>;
}
