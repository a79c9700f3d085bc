/**
 * `web/map`: the URLs of a site from its sitemaps (robots.txt `Sitemap:` lines and /sitemap.xml,
 * sitemap indexes, gzip) and from the links of its pages, kept to the site's host (and its
 * subdomains when asked), filtered, de-duplicated and bounded.
 */
import { gunzipSync } from 'node:zlib';
import { ProviderError } from '../types.ts';
import { fetchPage, type FetchContext, type FetchedPage } from './fetch-page.ts';
import { conversionPool } from './conversion-pool.ts';

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

async function tryFetch(url: string, context: FetchContext): Promise<FetchedPage | undefined> {
  try {
    const page = await fetchPage(url, context);
    return page.status < 400 ? page : undefined;
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'url_not_allowed') throw error;
    return undefined;
  }
}

/** Every <loc> of the site's sitemaps, following sitemap indexes. */
async function sitemapUrls(origin: string, context: FetchContext): Promise<string[]> {
  const robots = await tryFetch(`${origin}/robots.txt`, context);
  const declared = robots ? [...robots.body.toString('utf8').matchAll(/^\s*sitemap:\s*(\S+)/gim)].map((match) => match[1]!) : [];
  const queue = declared.length > 0 ? declared : [`${origin}/sitemap.xml`];
  const seen = new Set<string>();
  const urls: string[] = [];
  while (queue.length > 0 && seen.size < MAX_SITEMAP_FILES) {
    const sitemapUrl = queue.shift()!;
    if (seen.has(sitemapUrl)) continue;
    seen.add(sitemapUrl);
    const page = await tryFetch(sitemapUrl, context);
    if (!page) continue;
    const xml = sitemapText(page);
    const locations = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((match) => decodeXml(match[1]!));
    if (/<sitemapindex[\s>]/.test(xml)) queue.push(...locations);
    else urls.push(...locations);
  }
  return urls;
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

/** Maps the site of `query.url`. */
export async function mapSite(query: MapQuery, context: FetchContext): Promise<{ url: string; links: MapLink[] }> {
  const start = new URL(query.url);
  const host = start.hostname;
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

  if (query.sitemap !== 'skip') {
    for (const location of await sitemapUrls(start.origin, context)) add(normalise(location, start.href, query));
  }
  if (query.sitemap !== 'only') {
    const toVisit = [start.href];
    const visited = new Set<string>();
    while (toVisit.length > 0 && visited.size < MAX_PAGES) {
      const pageUrl = toVisit.shift()!;
      if (visited.has(pageUrl)) continue;
      visited.add(pageUrl);
      const page = await tryFetch(pageUrl, context);
      if (!page || !/html/.test(page.contentType ?? '')) continue;
      const document = await conversionPool.html(page, { formats: ['links', 'metadata'], onlyMainContent: false, removeBase64Images: true, blockAds: false });
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
