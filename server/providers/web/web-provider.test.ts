/**
 * The web provider against a local test site on loopback (ALLOW_PRIVATE_NETWORK, as tests and
 * intranet deployments set it), and the address policy that refuses every non-public target.
 */
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorAt, describeErrors } from '../../../contract-tests/contract.ts';
import { ProviderError, type DataProvider } from '../types.ts';
import { checkedUrl, isPublicAddress } from './address-policy.ts';
import { fetchPage } from './fetch-page.ts';
import { createWebProvider } from './index.ts';
import { ARTICLE, startTestSite, type TestSite } from '../../test-support/test-site.ts';

describe('the web provider on a local site', () => {
  let site: TestSite;
  let origin: string;
  let provider: DataProvider;

  beforeAll(async () => {
    site = await startTestSite();
    origin = site.origin;
    provider = createWebProvider({ policy: { allowPrivateNetwork: true }, limits: { maxBytes: 1024 * 1024 } });
  });
  afterAll(() => site.close());

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

describe('the address policy', () => {
  const closed = { allowPrivateNetwork: false };

  it.each([
    'http://127.0.0.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://127.1/', 'http://[::1]/',
    'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://10.0.0.8/', 'http://172.16.4.2/', 'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/', 'http://[fd00:ec2::254]/', 'http://[fe80::1]/',
    'http://localhost:3000/', 'http://db.internal/', 'http://printer.local/', 'http://224.0.0.1/',
  ])('refuses %s', (url) => {
    expect(() => checkedUrl(url, closed)).toThrow(expect.objectContaining({ code: 'url_not_allowed' }));
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'http://user:secret@example.com/'])('refuses %s by scheme or credentials', (url) => {
    expect(() => checkedUrl(url, closed)).toThrow(expect.objectContaining({ code: 'url_not_allowed' }));
  });

  it('allows public addresses and names', () => {
    expect(checkedUrl('https://example.com/a', closed).href).toBe('https://example.com/a');
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBe(true);
  });

  it('refuses a name whose DNS answer is private, at connect time', async () => {
    const provider = createWebProvider({ policy: closed, resolve: (_host, callback) => callback(null, [{ address: '10.1.2.3', family: 4 }]) });
    await expect(provider.fetch({ operationId: 'scrapeWebPage', query: { url: 'http://intranet.example.com/' }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'url_not_allowed' });
  });

  it('refuses a redirect to a non-public address', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('http://public.example.com').intercept({ path: '/go' }).reply(302, '', { headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    await expect(fetchPage('http://public.example.com/go', { agent: agent as never, policy: closed, limits: { timeoutMs: 5000, maxBytes: 1024, maxRedirects: 5 } })).rejects.toMatchObject({ code: 'url_not_allowed' });
    await agent.close();
  });
});
