/** The page the model reads: through the real web provider (on a local test site), and cut to size. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../test-support/test-site.ts';
import { testWebProvider } from '../../test-support/web-provider.ts';
import { pageForModel, readPageThrough } from './read-page.ts';

describe('readPageThrough the web provider', () => {
  let site: TestSite;
  const webProviders: ReturnType<typeof testWebProvider>[] = [];
  const webProvider = (allowPrivateNetwork: boolean) => {
    const provider = testWebProvider({ policy: { allowPrivateNetwork } });
    webProviders.push(provider);
    return provider;
  };
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await Promise.all(webProviders.map((provider) => provider.close()));
    await site.close();
  });

  it('reads the page as web/scrape does: main-content Markdown, the final URL and the full metadata', async () => {
    const readPage = readPageThrough(webProvider(true));
    const page = await readPage(`${site.origin}/article`, { onlyMainContent: true, timeoutMs: 5000 }, new AbortController().signal);
    expect(page.url).toBe(`${site.origin}/article`);
    expect(page.title).toBe('We launched the planner');
    expect(page.markdown).toContain('| Plan | Price |');
    expect(page.markdown).not.toContain('© 2026');
    expect(page.metadata).toEqual({ title: 'We launched the planner', description: 'After a year of beta, the planner is here.', language: 'en', source_url: `${site.origin}/article`, url: `${site.origin}/article`, status_code: 200, content_type: 'text/html' });
  });

  it('a user URL to a private address is refused by the address policy (url_not_allowed)', async () => {
    const readPage = readPageThrough(webProvider(false));
    await expect(readPage(`${site.origin}/article`, { onlyMainContent: true, timeoutMs: 5000 }, new AbortController().signal)).rejects.toMatchObject({ code: 'url_not_allowed' });
  });

  it('proxy enhanced is refused as web/scrape refuses it (capability_unavailable)', async () => {
    const readPage = readPageThrough(webProvider(true));
    await expect(readPage(`${site.origin}/article`, { onlyMainContent: true, timeoutMs: 5000, proxy: 'enhanced' }, new AbortController().signal)).rejects.toMatchObject({ code: 'capability_unavailable' });
  });
});

describe('pageForModel', () => {
  it('shows URL, title and Markdown whole when within the bound', () => {
    expect(pageForModel({ url: 'https://example.com/', title: 'Home', markdown: '# Hi' }, 10)).toBe('Page URL: https://example.com/\nPage title: Home\n\nPage content (Markdown):\n<page>\n# Hi\n</page>');
  });

  it('cuts the Markdown at the bound with a note giving both lengths', () => {
    expect(pageForModel({ url: 'https://example.com/', markdown: 'abcdefghijkl' }, 5)).toBe('Page URL: https://example.com/\nPage title: (none)\n\nPage content (Markdown):\n<page>\nabcde\n</page>\n\n[The page is longer: only its first 5 of 12 characters are shown.]');
  });
});
