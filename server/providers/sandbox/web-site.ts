/** A made-up website for `map`: the same pages for the same host, whatever else the request asks. */
import { SeededRandom } from './seeded.ts';

/** One page of the site, with how the mapper learns of it. */
export interface SiteLink {
  url: string;
  title: string | null;
  description: string | null;
  /** Listed in the site's sitemap. */
  inSitemap: boolean;
  /** Linked from a page the mapper visits (`title` is known when it visited this one too). */
  foundOnPage: boolean;
}

export interface SiteOptions {
  includeSubdomains: boolean;
  ignoreQueryParameters: boolean;
  /** The map's `search`: the site has a few pages about it, so a search finds something. */
  search?: string | undefined;
}

/** The pages of the host of `url` (and of two subdomains with `includeSubdomains`), without duplicates. */
export function buildSite(url: string, options: SiteOptions): SiteLink[] {
  const { protocol, hostname } = new URL(url);
  const apex = hostname.replace(/^www\./, '');
  const hosts = options.includeSubdomains ? [hostname, `blog.${apex}`, `docs.${apex}`] : [hostname];
  const links = hosts.flatMap((host, index) => hostPages(`${protocol}//${host}`, index === 0 ? 5 : 2, options));
  if (options.search !== undefined) links.push(...searchPages(`${protocol}//${hostname}`, options.search));
  const seen = new Set<string>();
  return links.filter((link) => !seen.has(link.url) && seen.add(link.url));
}

function hostPages(origin: string, sectionCount: number, options: SiteOptions): SiteLink[] {
  const random = new SeededRandom(`site:${origin}`);
  const paths = ['/'];
  for (const section of random.words(sectionCount)) {
    paths.push(`/${section}`);
    for (const page of random.words(random.int(2, 7))) paths.push(`/${section}/${page}`);
  }
  return paths.flatMap((path) => {
    const link = siteLink(random, `${origin}${path}`);
    const variant = !options.ignoreQueryParameters && path !== '/' && random.chance(0.2);
    return variant ? [link, { ...link, url: `${link.url}?page=2`, inSitemap: false, foundOnPage: true }] : [link];
  });
}

function searchPages(origin: string, search: string): SiteLink[] {
  const random = new SeededRandom(`site-search:${origin}:${search.toLowerCase()}`);
  const slug = search.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'page';
  const title = `${search} - ${new URL(origin).hostname}`;
  return random.words(random.int(1, 3)).map((section) => ({ ...siteLink(random, `${origin}/${section}/${slug}`), title, foundOnPage: true }));
}

function siteLink(random: SeededRandom, url: string): SiteLink {
  const inSitemap = random.chance(0.75);
  const foundOnPage = !inSitemap || random.chance(0.6);
  const visited = foundOnPage && random.chance(0.7);
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '').replace(/-/g, ' ');
  return {
    url,
    title: visited ? `${name === '' ? 'Home' : name.charAt(0).toUpperCase() + name.slice(1)} - ${new URL(url).hostname}` : null,
    description: visited && random.chance(0.7) ? random.sentence(8, 14) : null,
    inSitemap,
    foundOnPage,
  };
}

/** The links ordered by how many words of `text` (3 letters or more) their URL and title contain, stable otherwise. */
export function rankLinks(links: SiteLink[], text: string): SiteLink[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
  const score = (link: SiteLink): number => {
    const haystack = `${link.url} ${link.title ?? ''}`.toLowerCase();
    return words.filter((word) => haystack.includes(word)).length + (haystack.includes(text.toLowerCase()) ? words.length + 1 : 0);
  };
  return links.map((link, index) => ({ link, index, score: score(link) })).sort((a, b) => b.score - a.score || a.index - b.index).map(({ link }) => link);
}
