/** web/map against a local site: robots.txt → sitemap index → sitemaps (one gzipped), plus page links. */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import type { DataProvider } from '../types.ts';
import { testWebProvider } from '../../test-support/web-provider.ts';
import { closedOrigin } from '../../test-support/closed-origin.ts';

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
    provider = testWebProvider({ policy: { allowPrivateNetwork: true } });
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

/** A local site answering every request with `answer`, which records the paths it was asked. */
async function startSite(answer: (path: string, response: ServerResponse) => void): Promise<{ origin: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const site = createServer((request, response) => {
    paths.push(request.url ?? '/');
    answer(request.url ?? '/', response);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    paths,
    close: () => new Promise<void>((resolve) => {
      site.closeAllConnections();
      site.close(() => resolve());
    }),
  };
}

const status = (code: number, type = 'text/html', body = '<html><body>error</body></html>') => (_path: string, response: ServerResponse) => {
  response.writeHead(code, { 'content-type': type });
  response.end(body);
};

describe('a map emptied by an upstream failure is an error, never an empty success', () => {
  const TIMEOUT_MS = 400;
  const provider = testWebProvider({ policy: { allowPrivateNetwork: true }, limits: { timeoutMs: TIMEOUT_MS } });
  const map = (url: string, sitemap: string) => provider.fetch({ operationId: 'mapWebsite', query: { url, sitemap }, signal: new AbortController().signal });
  const sitemapModes = ['include', 'skip', 'only'];

  it.each(sitemapModes)('a host with nothing listening answers upstream_failed (sitemap=%s), not 200 with no links', async (sitemap) => {
    const url = `${await closedOrigin()}/`;
    await expect(map(url, sitemap)).rejects.toMatchObject({ code: 'upstream_failed', message: expect.stringMatching(new RegExp(`^The site of ${url} could not be mapped: .*ECONNREFUSED`)) });
  });

  it.each(sitemapModes)('a host whose name does not resolve answers upstream_failed (sitemap=%s)', async (sitemap) => {
    const unresolved = testWebProvider({
      policy: { allowPrivateNetwork: true },
      resolve: (host: string, callback: (error: NodeJS.ErrnoException | null, addresses: never[]) => void) => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []),
    });
    const answer = unresolved.fetch({ operationId: 'mapWebsite', query: { url: 'http://nowhere.example/', sitemap }, signal: new AbortController().signal });
    await expect(answer).rejects.toMatchObject({ code: 'upstream_failed', message: expect.stringContaining('could not be resolved') });
  });

  it.each([
    { site: 'a 500 start page with no sitemap', answer: status(500), sitemap: 'include', code: 'upstream_failed' },
    { site: 'a 500 start page', answer: status(500), sitemap: 'skip', code: 'upstream_failed' },
    { site: 'a site answering 500 to its sitemap requests', answer: status(500), sitemap: 'only', code: 'upstream_failed' },
    { site: 'a 404 start page with no sitemap', answer: status(404), sitemap: 'include', code: 'upstream_not_found' },
    { site: 'a 403 start page with no sitemap', answer: status(403), sitemap: 'include', code: 'upstream_rejected' },
  ])('$site answers $code (sitemap=$sitemap), as a scrape of it would', async ({ answer, sitemap, code }) => {
    const site = await startSite(answer);
    try {
      await expect(map(`${site.origin}/`, sitemap)).rejects.toMatchObject({ code });
    } finally {
      await site.close();
    }
  });

  it('a host that does not answer in time answers upstream_timeout after one request, not one timeout per sitemap', async () => {
    const site = await startSite(() => undefined);
    try {
      await expect(map(`${site.origin}/`, 'include')).rejects.toMatchObject({ code: 'upstream_timeout' });
      expect(site.paths).toEqual(['/']);
    } finally {
      await site.close();
    }
  });

  it.each([
    { site: 'a page without links, no sitemap', answer: (path: string, response: ServerResponse) => (path === '/' ? status(200, 'text/html', '<html><body>Nothing to link</body></html>') : status(404))(path, response), sitemap: 'include', links: ['/'] },
    { site: 'a site without a sitemap', answer: (path: string, response: ServerResponse) => (path === '/' ? status(200) : status(404))(path, response), sitemap: 'only', links: [] },
    {
      site: 'a 404 start page with a sitemap',
      answer: (path: string, response: ServerResponse) => (path === '/sitemap.xml' ? status(200, 'application/xml', '<urlset><url><loc>/listed</loc></url></urlset>') : status(404))(path, response),
      sitemap: 'include',
      links: ['/listed'],
    },
  ])('$site that answers is still a 200 (sitemap=$sitemap)', async ({ answer, sitemap, links }) => {
    const site = await startSite(answer);
    try {
      const data = (await map(`${site.origin}/`, sitemap)) as { links: { url: string }[] };
      expect(data.links.map((link) => new URL(link.url).pathname)).toEqual(links);
    } finally {
      await site.close();
    }
  });
});
