/**
 * `web/map`: the URLs of a site from its sitemaps (robots.txt `Sitemap:` lines and /sitemap.xml,
 * sitemap indexes, gzip) and from the links of its pages, kept to the site's host (and its
 * subdomains when asked), filtered, de-duplicated and bounded. A map that could read nothing of
 * its site fails with the upstream's error rather than answering an empty list.
 */
import { gunzipSync } from 'node:zlib';
import { ProviderError } from '../types.ts';
import { fetchPage, statusFailure, UpstreamUnreached, type FetchContext, type FetchedPage } from '../../outbound/fetch-page.ts';
import type { ConversionPool } from './conversion-pool.ts';

export interface MapQuery {
  url: string;
  search?: string;
  limit: number;
  sitemap: 'include' | 'skip' | 'only';
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
}

export interface MapLink {
  url: string;
  title: string | null;
  description: string | null;
}

/** How many sitemap files and pages one map may read, whatever the site offers. */
const MAX_SITEMAP_FILES = 25;
const MAX_PAGES = 10;
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

function decodeXml(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");
}

function sitemapText(page: FetchedPage): string {
  const gzipped = page.body[0] === 0x1f && page.body[1] === 0x8b;
  try {
    return (gzipped ? gunzipSync(page.body, { maxOutputLength: MAX_SITEMAP_BYTES }) : page.body).toString('utf8');
  } catch {
    return '';
  }
}

/**
 * Reads the pages of one site for its map, remembering what the site answered: a fetch that fails
 * is left out of the map, but when the site's first request got no answer at all (unresolved,
 * refused, timed out), the site is unreachable and is not asked again.
 */
class SiteReader {
  private readonly origin: string;
  private readonly context: FetchContext;
  private unreachable: ProviderError | undefined;
  /** Whether the site gave any HTTP answer below 500: it is up, even if it has nothing to map. */
  answered = false;
  /** The first failure of a request to the site, for a map that read nothing. */
  firstFailure: ProviderError | undefined;

  constructor(origin: string, context: FetchContext) {
    this.origin = origin;
    this.context = context;
  }

  /** The page at `url`, or why it could not be read; a URL the address policy refuses throws. */
  async read(url: string): Promise<FetchedPage | ProviderError> {
    const onSite = new URL(url).origin === this.origin;
    if (onSite && this.unreachable) return this.unreachable;
    let page: FetchedPage;
    try {
      page = await fetchPage(url, this.context);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.code === 'url_not_allowed') throw error;
      if (onSite && error instanceof UpstreamUnreached && !this.answered && !this.firstFailure) this.unreachable = error;
      if (onSite) this.firstFailure ??= error;
      return error;
    }
    if (onSite && page.status < 500) this.answered = true;
    const failure = statusFailure(page);
    if (failure && onSite) this.firstFailure ??= failure;
    return failure ?? page;
  }
}

/** Every <loc> of the site's sitemaps, following sitemap indexes, and how many sitemap files were read. */
async function sitemapUrls(origin: string, reader: SiteReader): Promise<{ urls: string[]; filesRead: number }> {
  const robots = await reader.read(`${origin}/robots.txt`);
  const declared = robots instanceof ProviderError ? [] : [...robots.body.toString('utf8').matchAll(/^\s*sitemap:\s*(\S+)/gim)].map((match) => match[1]!);
  const queue = declared.length > 0 ? declared : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const urls: string[] = [];
  let filesRead = 0;
  while (queue.length > 0 && seen.size < MAX_SITEMAP_FILES) {
    const sitemapUrl = queue.shift()!;
    if (seen.has(sitemapUrl)) continue;
    seen.add(sitemapUrl);
    const page = await reader.read(sitemapUrl);
    if (page instanceof ProviderError) continue;
    filesRead++;
    const xml = sitemapText(page);
    const locations = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((match) => decodeXml(match[1]!));
    if (/<sitemapindex[\s>]/.test(xml)) queue.push(...locations);
    else urls.push(...locations);
  }
  return { urls, filesRead };
}

function normalise(text: string, base: string, query: MapQuery): string | undefined {
  try {
    const url = new URL(text, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    if (query.ignoreQueryParameters) url.search = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The error of a map that read nothing of its site: the site is unreachable, or its start URL
 * failed and it has no sitemap. An answer emptied by an upstream failure is an error, never a
 * charged success.
 */
function siteFailure(url: string, failure: ProviderError): ProviderError {
  return new ProviderError(failure.code, `The site of ${url} could not be mapped: no page and no sitemap of it could be read. ${failure.message}`);
}

/**
 * Maps the site of `query.url`. The start page is read first (unless `sitemap=only`), so a site
 * that cannot be reached costs one timeout, and its error is the one a scrape of the URL answers.
 */
export async function mapSite(query: MapQuery, context: FetchContext, pool: ConversionPool): Promise<{ url: string; links: MapLink[] }> {
  const start = new URL(query.url);
  const host = start.hostname;
  const reader = new SiteReader(start.origin, context);
  const onSite = (url: string) => {
    const candidate = new URL(url).hostname;
    return candidate === host || (query.includeSubdomains && candidate.endsWith(`.${host.replace(/^www\./, '')}`));
  };
  const links = new Map<string, MapLink>();
  const add = (url: string | undefined, details: Partial<MapLink> = {}) => {
    if (!url || !onSite(url)) return;
    const known = links.get(url);
    links.set(url, { url, title: details.title ?? known?.title ?? null, description: details.description ?? known?.description ?? null });
  };

  const startPage = query.sitemap === 'only' ? undefined : await reader.read(start.href);
  let sitemapFilesRead = 0;
  if (query.sitemap !== 'skip') {
    const sitemap = await sitemapUrls(start.origin, reader);
    sitemapFilesRead = sitemap.filesRead;
    for (const location of sitemap.urls) add(normalise(location, start.href, query));
  }
  if (startPage instanceof ProviderError && sitemapFilesRead === 0) throw siteFailure(query.url, startPage);
  if (query.sitemap === 'only' && sitemapFilesRead === 0 && !reader.answered && reader.firstFailure) throw siteFailure(query.url, reader.firstFailure);

  if (query.sitemap !== 'only') {
    const toVisit = [start.href];
    const visited = new Set<string>();
    while (toVisit.length > 0 && visited.size < MAX_PAGES) {
      const pageUrl = toVisit.shift()!;
      if (visited.has(pageUrl)) continue;
      visited.add(pageUrl);
      const page = pageUrl === start.href ? startPage! : await reader.read(pageUrl);
      if (page instanceof ProviderError || !/html/.test(page.contentType ?? '')) continue;
      const document = await pool.html(page, { formats: ['links', 'metadata'], onlyMainContent: false, removeBase64Images: true, blockAds: false });
      add(normalise(page.url, page.url, query), { title: document.metadata?.title ?? null, description: document.metadata?.description ?? null });
      for (const link of document.links ?? []) {
        const url = normalise(link, page.url, query);
        add(url);
        if (url && onSite(url)) toVisit.push(url);
      }
    }
  }

  let result = [...links.values()];
  if (query.search) {
    const needle = query.search.toLowerCase();
    result = result
      .filter((link) => link.url.toLowerCase().includes(needle) || link.title?.toLowerCase().includes(needle))
      .sort((a, b) => Number(Boolean(b.title?.toLowerCase().includes(needle))) - Number(Boolean(a.title?.toLowerCase().includes(needle))));
  }
  return { url: query.url, links: result.slice(0, query.limit) };
}
