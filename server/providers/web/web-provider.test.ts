/**
 * The web provider against a local test site on loopback (ALLOW_PRIVATE_NETWORK, as tests and
 * intranet deployments set it); the address policy is tested in server/outbound/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { testWebProvider } from '../../test-support/web-provider.ts';
import { ARTICLE, startTestSite, type TestSite } from '../../test-support/test-site.ts';

describe('the web provider on a local site', () => {
  let site: TestSite;
  let origin: string;
  let provider: DataProvider & { close(): Promise<void> };

  beforeAll(async () => {
    site = await startTestSite();
    origin = site.origin;
    provider = testWebProvider({ policy: { allowPrivateNetwork: true }, limits: { maxBytes: 1024 * 1024 } });
  });
  afterAll(async () => {
    await site.close();
    await provider.close();
  });

  const scrape = (query: Record<string, unknown>) => provider.fetch({ operationId: 'scrapeWebPage', query, signal: new AbortController().signal });

  it('converts the main content to Markdown with headings, lists, tables, links and code, without ads or chrome', async () => {
    const data = await scrape({ url: `${origin}/article` });
    const validate = validatorAt('/components/schemas/WebDocument');
    expect(describeErrors(validate(data) ? [] : validate.errors)).toEqual([]);
    expect(Object.keys(data).sort()).toEqual(['markdown', 'metadata', 'url']);
    const markdown = String(data.markdown);
    expect(markdown).toContain('## What changed');
    expect(markdown).toMatch(/^-\s+Boards load faster$/m);
    expect(markdown).toContain('| Plan | Price |');
    expect(markdown).toContain(`[available to every team](${origin}/docs)`);
    expect(markdown).toContain('const planner = await open();');
    expect(markdown).toContain('usage chart');
    expect(markdown).not.toMatch(/BUY NOW|Pricing|© 2026|base64/);
    expect(data.metadata).toEqual({ title: 'We launched the planner', description: 'After a year of beta, the planner is here.', language: 'en', source_url: `${origin}/article`, url: `${origin}/article`, status_code: 200, content_type: 'text/html' });
  });

  it('keeps the whole page with only_main_content false, and honours include and exclude tags', async () => {
    const whole = await scrape({ url: `${origin}/article`, only_main_content: false, formats: 'markdown' });
    expect(whole.markdown).toContain('© 2026');
    const excluded = await scrape({ url: `${origin}/article`, only_main_content: false, formats: 'markdown', exclude_tags: 'nav,.site-footer' });
    expect(excluded.markdown).not.toMatch(/Pricing|© 2026/);
    const included = await scrape({ url: `${origin}/article`, only_main_content: false, formats: 'markdown', include_tags: 'table' });
    expect(String(included.markdown).trim()).toBe('| Plan | Price |\n| --- | --- |\n| Team | $49 |');
  });

  it('gives exactly the formats asked for: html, raw_html, links', async () => {
    const data = await scrape({ url: `${origin}/article`, formats: 'html,raw_html,links' });
    expect(Object.keys(data).sort()).toEqual(['html', 'links', 'raw_html', 'url']);
    expect(data.raw_html).toBe(ARTICLE);
    expect(data.links).toEqual([`${origin}/`, `${origin}/pricing`, `${origin}/docs`]);
  });

  it('follows redirects and reports the final URL', async () => {
    const data = await scrape({ url: `${origin}/redirect`, formats: 'metadata' });
    expect(data.metadata).toMatchObject({ source_url: `${origin}/redirect`, url: `${origin}/article` });
  });

  it('fetches as a mobile device when asked', async () => {
    const data = await scrape({ url: `${origin}/agent`, formats: 'markdown', only_main_content: false, mobile: true });
    expect(data.markdown).toContain('iPhone');
  });

  it('gives plain text as a code block rather than reading it as HTML', async () => {
    const data = await scrape({ url: `${origin}/plain`, formats: 'markdown' });
    expect(data.markdown).toContain('line <two>');
  });

  it('gives the text of a PDF, page by page, with its title', async () => {
    const data = await scrape({ url: `${origin}/report.pdf`, formats: 'markdown,metadata' });
    expect(data.markdown).toBe('Revenue grew 12 percent\n\nCosts fell 3 percent');
    expect(data.metadata).toMatchObject({ title: 'Quarterly report', content_type: 'application/pdf', status_code: 200 });
    const unparsed = await scrape({ url: `${origin}/report.pdf`, formats: 'markdown,metadata', pdf_parse: false });
    expect(unparsed.markdown).toBe('');
  });

  it.each([
    { path: '/broken.pdf', code: 'upstream_failed' },
    { path: '/missing', code: 'upstream_not_found' },
    { path: '/forbidden', code: 'upstream_rejected' },
    { path: '/broken', code: 'upstream_failed' },
    { path: '/loop', code: 'upstream_failed' },
    { path: '/huge', code: 'upstream_failed' },
    { path: '/bomb', code: 'upstream_failed' },
  ])('answers $path with $code', async ({ path, code }) => {
    await expect(scrape({ url: `${origin}${path}` })).rejects.toMatchObject({ code });
  });

  it('reads markup nested 1,000 deep as its body, quickly (Readability would take most of a minute)', async () => {
    const started = performance.now();
    const data = await scrape({ url: `${origin}/nested`, formats: 'markdown' });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(data.markdown).toMatch(/^deep\s+deep/);
    expect(data.markdown).not.toContain('Menu');
  });

  it('gives up converting a page nested beyond reason at the timeout, with upstream_failed', async () => {
    await expect(scrape({ url: `${origin}/abyss`, timeout: 1500 })).rejects.toMatchObject({ code: 'upstream_failed', message: 'The page could not be converted within 1500 ms.' });
  });

  it('gives up at the timeout with upstream_timeout', async () => {
    await expect(scrape({ url: `${origin}/slow`, timeout: 1000 })).rejects.toMatchObject({ code: 'upstream_timeout', message: 'The page did not answer within the timeout of 1000 ms.' });
  });

  it.each([
    { query: { wait_for: 500 }, capability: 'headless browser' },
    { query: { formats: 'markdown,screenshot' }, capability: 'headless browser' },
    { query: { proxy: 'enhanced' }, capability: 'proxy network' },
    { query: { location_country: 'DE' }, capability: 'proxy network' },
  ])('answers 503 capability_unavailable naming the $capability it lacks', async ({ query, capability }) => {
    const failure = await scrape({ url: `${origin}/article`, ...query }).catch((error: ProviderError) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).code).toBe('capability_unavailable');
    expect((failure as ProviderError).message).toContain(capability);
  });
});
