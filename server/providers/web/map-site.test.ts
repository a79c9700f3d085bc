/** web/map against a local site: robots.txt → sitemap index → sitemaps (one gzipped), plus page links. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import type { DataProvider } from '../types.ts';
import { createWebProvider } from './index.ts';

describe('mapping a site', () => {
  let server: Server;
  let origin: string;
  let provider: DataProvider;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '/';
      const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
      const pages: Record<string, [string, string | Buffer]> = {
        '/robots.txt': ['text/plain', `User-agent: *\nSitemap: ${origin}/sitemap-index.xml\n`],
        '/sitemap-index.xml': ['application/xml', xml(`<sitemapindex><sitemap><loc>${origin}/sitemap-blog.xml</loc></sitemap><sitemap><loc>${origin}/sitemap-docs.xml.gz</loc></sitemap></sitemapindex>`)],
        '/sitemap-blog.xml': ['application/xml', xml(`<urlset><url><loc>${origin}/blog/launch</loc></url><url><loc>${origin}/blog/pricing-update?ref=rss&amp;x=1</loc></url><url><loc>https://elsewhere.example/out</loc></url></urlset>`)],
        '/sitemap-docs.xml.gz': ['application/octet-stream', gzipSync(xml(`<urlset><url><loc>${origin}/docs/start</loc></url></urlset>`))],
        '/': ['text/html', `<html><head><title>Home</title></head><body><a href="/about">About us</a> <a href="/blog/launch#top">Launch</a> <a href="https://other.example/x">Out</a></body></html>`],
        '/about': ['text/html', '<html><head><title>About us</title><meta name="description" content="Who we are"></head><body><a href="/team">Team</a></body></html>'],
        '/team': ['text/html', '<html><head><title>Team</title></head><body>People</body></html>'],
      };
      const page = pages[path];
      if (!page) {
        response.writeHead(404, { 'content-type': 'text/plain' });
        return response.end('no');
      }
      response.writeHead(200, { 'content-type': page[0] });
      response.end(page[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    provider = createWebProvider({ policy: { allowPrivateNetwork: true } });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const map = async (query: Record<string, unknown>) => {
    const data = await provider.fetch({ operationId: 'mapWebsite', query: { url: `${origin}/`, ...query }, signal: new AbortController().signal });
    const validate = validatorAt('/components/schemas/WebsiteMap');
    expect(describeErrors(validate(data) ? [] : validate.errors)).toEqual([]);
    return data as { url: string; links: { url: string; title: string | null; description: string | null }[] };
  };

  it('joins sitemap links (through an index and a gzipped sitemap) and page links, on the site only', async () => {
    const { links } = await map({});
    expect(links.map((link) => link.url).sort()).toEqual([`${origin}/`, `${origin}/about`, `${origin}/blog/launch`, `${origin}/blog/pricing-update`, `${origin}/docs/start`, `${origin}/team`].sort());
    expect(links.find((link) => link.url === `${origin}/about`)).toEqual({ url: `${origin}/about`, title: 'About us', description: 'Who we are' });
  });

  it.each([
    { sitemap: 'only', expected: ['/blog/launch', '/blog/pricing-update', '/docs/start'] },
    { sitemap: 'skip', expected: ['/', '/about', '/blog/launch', '/team'] },
  ])('with sitemap=$sitemap reads only what it says', async ({ sitemap, expected }) => {
    const { links } = await map({ sitemap });
    expect(links.map((link) => new URL(link.url).pathname).sort()).toEqual(expected.sort());
  });

  it('keeps query parameters when asked, filters by search and stops at limit', async () => {
    expect((await map({ sitemap: 'only', ignore_query_parameters: false })).links.map((link) => link.url)).toContain(`${origin}/blog/pricing-update?ref=rss&x=1`);
    expect((await map({ search: 'BLOG' })).links.map((link) => new URL(link.url).pathname).sort()).toEqual(['/blog/launch', '/blog/pricing-update']);
    expect((await map({ limit: 2 })).links).toHaveLength(2);
  });

  it('answers 503 for a goal, which needs a ranking provider', async () => {
    await expect(provider.fetch({ operationId: 'mapWebsite', query: { url: `${origin}/`, goal: 'pricing pages' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'capability_unavailable' });
  });
});
