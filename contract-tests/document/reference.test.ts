/**
 * The reference as the server serves it at `/docs` (the page `npm run docs` builds), opened in
 * headless Chromium with every request beyond the server refused: it loads nothing from the
 * network and shows no broken image, its menu lists every operation's summary under its platform,
 * an operation's page shows its description, its Servers box shows plain text, no script error is
 * raised, and every error's `doc_url` lands on the heading of its code.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorCode } from '../../generated/errors.ts';
import { errorAnswer } from '../../lib/envelope.ts';
import { startTestServer, type TestServer } from '../../server/test-support/test-server.ts';
import { contract, contractOperations } from '../contract.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CATALOG_CODES = Object.keys(errorCatalog) as ErrorCode[];

interface Provocation {
  code: ErrorCode;
  /** Sends the request that provokes `code`; returns the answer's body. */
  send(server: TestServer): Promise<{ error?: { code: string; doc_url: string } }>;
}

async function post(server: TestServer, path: string, key: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, body });
  return response.json();
}

const scrape = (url: string) => `/web/scrape?url=${encodeURIComponent(url)}`;

/** Every error code the test server can be made to answer without a fault injected. */
const provocations: Provocation[] = [
  { code: 'api_key_missing', send: async (server) => (await server.call(scrape('https://example.com'))).body },
  { code: 'api_key_invalid', send: async (server) => (await server.call(scrape('https://example.com'), { key: 'wsdq_never_issued' })).body },
  { code: 'api_key_expired', send: async (server) => (await server.call(scrape('https://example.com'), { key: (await server.key({ expiresAt: '2026-01-01T00:00:00Z' })).secret })).body },
  {
    code: 'api_key_revoked',
    send: async (server) => {
      const { secret, id } = await server.key();
      await server.stores.keys.revoke(id);
      return (await server.call(scrape('https://example.com'), { key: secret })).body;
    },
  },
  { code: 'insufficient_credits', send: async (server) => (await server.call(scrape('https://example.com'), { key: (await server.key({ credits: 0 })).secret })).body },
  { code: 'scope_denied', send: async (server) => (await server.call(scrape('https://example.com'), { key: (await server.key({ scopes: ['finance'] })).secret })).body },
  { code: 'endpoint_not_found', send: async (server) => (await server.call('/nowhere', { key: (await server.key()).secret })).body },
  { code: 'resource_not_found', send: async (server) => (await server.call('/web/jobs/job_01JD4Q9B2C3D4E5F6G7H8J9K0M', { key: (await server.key()).secret })).body },
  { code: 'method_not_allowed', send: async (server) => (await server.call(scrape('https://example.com'), { method: 'DELETE', key: (await server.key()).secret })).body },
  { code: 'invalid_parameters', send: async (server) => (await server.call('/web/scrape', { key: (await server.key()).secret })).body },
  { code: 'invalid_json_body', send: async (server) => post(server, '/web/crawl', (await server.key()).secret, '{"url":') },
  { code: 'unsupported_media_type', send: async (server) => post(server, '/web/crawl', (await server.key()).secret, 'url=https://example.com', { 'content-type': 'text/plain' }) },
  { code: 'body_too_large', send: async (server) => post(server, '/web/crawl', (await server.key()).secret, JSON.stringify({ url: 'https://example.com', pad: 'x'.repeat(1_100_000) })) },
  {
    code: 'idempotency_key_reused',
    send: async (server) => {
      const key = (await server.key()).secret;
      await post(server, '/web/crawl', key, JSON.stringify({ url: 'https://example.com/a' }), { 'idempotency-key': 'docs-link' });
      return post(server, '/web/crawl', key, JSON.stringify({ url: 'https://example.com/b' }), { 'idempotency-key': 'docs-link' });
    },
  },
  {
    code: 'rate_limited',
    send: async (server) => {
      const key = (await server.key({ rateLimit: { requests: 1, windowSeconds: 3600 } })).secret;
      await server.call('/web/jobs', { key });
      return (await server.call('/web/jobs', { key })).body;
    },
  },
  { code: 'provider_unavailable', send: async (server) => (await server.call('/finance/history?symbol=AAPL', { key: (await server.key({ sandbox: false })).secret })).body },
  ...([[400, 'upstream_rejected'], [403, 'provider_policy_denied'], [404, 'upstream_not_found'], [502, 'upstream_failed'], [504, 'upstream_timeout']] as const).map(
    ([status, code]): Provocation => ({ code, send: async (server) => (await server.call(scrape(`https://fail-${status}.sandbox.test/page`), { key: (await server.key()).secret })).body }),
  ),
];

/** Where a followed link landed: the element its fragment names, the paragraph after it, and whether it is in view. */
interface Landing {
  tag: string;
  text: string;
  following: string;
  inView: boolean;
}

/** Follows `docUrl` in `page` and describes the element its fragment names, or returns null when there is none. */
async function follow(page: Page, docUrl: string): Promise<Landing | null> {
  await page.goto(docUrl, { waitUntil: 'load' });
  const id = decodeURIComponent(new URL(docUrl).hash.slice(1));
  try {
    await page.waitForFunction((anchor) => {
      const top = document.getElementById(anchor)?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight;
    }, id, { timeout: 5_000 });
  } catch {
    // Not in view: reported below as it is.
  }
  return page.evaluate((anchor) => {
    const element = document.getElementById(anchor);
    if (!element) return null;
    const top = element.getBoundingClientRect().top;
    const paragraph = document.evaluate('following::p[1]', element, null, XPathResult.FIRST_ORDERED_NODE_TYPE).singleNodeValue;
    return { tag: element.tagName, text: element.textContent ?? '', following: paragraph?.textContent ?? '', inView: top >= 0 && top < window.innerHeight };
  }, id);
}

describe('the rendered reference, served at /docs, offline in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let docsUrl: string;
  let menuText: string;
  let scrapePageText: string;
  let serversBoxText: string;
  let bodyHtml: string;
  let brokenImages: string[];
  const provoked = new Map<ErrorCode, { docUrl: string | undefined; landing: Landing | null }>();
  const catalogLandings = new Map<ErrorCode, { docUrl: string; landing: Landing | null }>();
  const refusedRequests: string[] = [];
  const scriptErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    const origin = new URL(server.baseUrl).origin;
    docsUrl = `${origin}/docs`;
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      refusedRequests.push(`${route.request().resourceType()} ${url}`);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    await page.goto(docsUrl, { waitUntil: 'load' });
    const menuItems = page.locator('[data-component-name="Menu/MenuItem"]');
    const seen: string[] = [];
    // The menu opens one platform's group at a time, as a reader would click through them.
    for (const tag of (contract.tags as { name: string }[]).map((entry) => entry.name)) {
      await menuItems.getByText(tag, { exact: true }).click();
      seen.push(...(await menuItems.allInnerTexts()));
    }
    menuText = seen.join('\n');
    // Clicking through the groups may have closed web's again: open it when its first operation is hidden.
    const scrapeItem = menuItems.getByText('Scrape a web page', { exact: true }).first();
    if (!(await scrapeItem.isVisible())) await menuItems.getByText('web', { exact: true }).click();
    await scrapeItem.click();
    await page.getByRole('heading', { name: 'Scrape a web page' }).waitFor();
    scrapePageText = await page.evaluate(() => document.body.innerText);
    serversBoxText = await page.locator('[data-component-name="Panel/Panel"]').filter({ has: page.locator('[data-component-name="Panel/PanelHeader"]', { hasText: /^Servers$/ }) }).innerText();
    bodyHtml = await page.content();
    brokenImages = await page.evaluate(() => [...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src.slice(0, 120)));

    // Telemetry exporters batch for about five seconds: the reference page stays open that long
    // (and more) while the links below are followed in a second page.
    const telemetryWindow = page.waitForTimeout(6_000);
    const linkPage = await context.newPage();
    linkPage.on('pageerror', (error) => scriptErrors.push(error.message));
    for (const { code, send } of provocations) {
      const docUrl = (await send(server)).error?.doc_url;
      provoked.set(code, { docUrl, landing: docUrl ? await follow(linkPage, docUrl) : null });
    }
    for (const code of CATALOG_CODES) {
      const docUrl = (errorAnswer(code, 'built as the server builds it', { platform: 'web', endpoint: '/web/scrape', creditsRemaining: null }, 'req_test', docsUrl).body.error as { doc_url: string }).doc_url;
      catalogLandings.set(code, { docUrl, landing: await follow(linkPage, docUrl) });
    }
    await telemetryWindow;
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(contractOperations())('lists the summary of $operationId in the menu', ({ object }) => {
    expect(menuText).toContain(object.summary as string);
  });

  it("shows an operation's description and parameters on its page", () => {
    expect(scrapePageText).toContain('Fetches one page and returns it in the formats asked for.');
    expect(scrapePageText).toContain('only_main_content');
  });

  it('the Servers box showed literal Markdown backticks: it shows each server in plain text', () => {
    expect(serversBoxText).toContain('http://127.0.0.1:3000/v1');
    expect(serversBoxText).toContain('npm start');
    expect(serversBoxText).not.toContain('`');
  });

  it('the page fetched a logo from a CDN: it requests nothing beyond the server that serves it', () => {
    expect(refusedRequests).toEqual([]);
  });

  it('shows no broken image', () => {
    expect(brokenImages).toEqual([]);
  });

  it('raises no script error while rendering', () => {
    expect(scriptErrors).toEqual([]);
  });

  it('inlines the reference script rather than linking a CDN', () => {
    expect(bodyHtml).not.toMatch(/<script[^>]+src="https?:/);
  });

  it.each(provocations.map(({ code }) => code))('doc_url was a dead link: the server\'s %s answer links to its heading at /docs, and the browser lands on it', (code) => {
    const { docUrl, landing } = provoked.get(code)!;
    expect(docUrl).toBe(`${docsUrl}#section/${code}`);
    expect(landing).toEqual({ tag: 'H3', text: code, following: expect.stringMatching(new RegExp(`^${errorCatalog[code].status} ${errorCatalog[code].type}: `)), inView: true });
  });

  it.each(CATALOG_CODES)('the doc_url of %s, as the server builds it, lands on the heading of the code with its status and type', (code) => {
    const { docUrl, landing } = catalogLandings.get(code)!;
    expect(docUrl.startsWith(`${docsUrl}#`)).toBe(true);
    expect(landing).toEqual({ tag: 'H3', text: code, following: expect.stringMatching(new RegExp(`^${errorCatalog[code].status} ${errorCatalog[code].type}: `)), inView: true });
  });
});
