/**
 * `npm run docs` renders a reference that works offline: opened in headless Chromium with every
 * network request refused, it requests nothing and shows no broken image, its menu lists every
 * operation's summary under its platform, an operation's page shows its description, its Servers
 * box shows plain text, and no script error is raised.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReference } from '../../scripts/build-reference.ts';
import { contract, contractOperations } from '../contract.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the rendered reference, offline in Chromium', () => {
  let workDir: string;
  let browser: Browser;
  let menuText: string;
  let scrapePageText: string;
  let serversBoxText: string;
  let bodyHtml: string;
  let brokenImages: string[];
  const refusedRequests: string[] = [];
  const scriptErrors: string[] = [];

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'reference-'));
    const referenceFile = await buildReference(join(workDir, 'reference.html'));
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ offline: true });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      refusedRequests.push(`${route.request().resourceType()} ${url}`);
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    await page.goto(pathToFileURL(referenceFile).href, { waitUntil: 'load' });
    const menuItems = page.locator('[data-component-name="Menu/MenuItem"]');
    const seen: string[] = [];
    // The menu opens one platform's group at a time, as a reader would click through them.
    for (const tag of (contract.tags as { name: string }[]).map((entry) => entry.name)) {
      await menuItems.getByText(tag, { exact: true }).click();
      seen.push(...(await menuItems.allInnerTexts()));
    }
    menuText = seen.join('\n');
    await menuItems.getByText('Scrape a web page', { exact: true }).first().click();
    await page.getByRole('heading', { name: 'Scrape a web page' }).waitFor();
    await page.screenshot({ path: join(workDir, 'reference.png') });
    scrapePageText = await page.evaluate(() => document.body.innerText);
    serversBoxText = await page.locator('[data-component-name="Panel/Panel"]').filter({ has: page.locator('[data-component-name="Panel/PanelHeader"]', { hasText: /^Servers$/ }) }).innerText();
    bodyHtml = await page.content();
    brokenImages = await page.evaluate(() => [...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.src.slice(0, 120)));
    // Telemetry exporters batch for about five seconds: stay long enough to see any attempt.
    await page.waitForTimeout(6_000);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await rm(workDir, { recursive: true, force: true });
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

  it('the page fetched a logo from a CDN: it requests nothing from the network', () => {
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
});
