/** wait_for and screenshots in headless Chromium (Debian's, or CHROMIUM_PATH), on a local page that renders late. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataProvider } from '../types.ts';
import { HeadlessBrowser } from './browser.ts';
import { createWebProvider } from './index.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the web provider with a browser', () => {
  let site: Server;
  let origin: string;
  let browser: HeadlessBrowser;
  let provider: DataProvider;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<html><head><title>Late page</title></head><body><h1>Dashboard</h1><div id="late"></div>
<script>setTimeout(() => { document.getElementById('late').innerHTML = '<p>Rendered by script after loading, with the numbers for this quarter.</p>'; }, 300);</script></body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = new HeadlessBrowser(CHROMIUM_PATH, { allowPrivateNetwork: true });
    provider = createWebProvider({ policy: { allowPrivateNetwork: true }, browser });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  const scrape = (query: Record<string, unknown>) => provider.fetch({ operationId: 'scrapeWebPage', query: { url: `${origin}/`, ...query }, signal: new AbortController().signal });

  it('waits wait_for milliseconds so script-rendered content is read', async () => {
    const data = await scrape({ wait_for: 1000, formats: 'markdown', only_main_content: false });
    expect(data.markdown).toContain('Rendered by script after loading');
  });

  it('takes a PNG screenshot as a data URL', async () => {
    const data = await scrape({ formats: 'screenshot,metadata', screenshot_full_page: true });
    expect(String(data.screenshot)).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(data.metadata).toMatchObject({ title: 'Late page', status_code: 200 });
  });

  it('refuses a non-public page when the policy is public-only', async () => {
    const closed = new HeadlessBrowser(CHROMIUM_PATH, { allowPrivateNetwork: false });
    const closedProvider = createWebProvider({ policy: { allowPrivateNetwork: false }, browser: closed });
    await expect(closedProvider.fetch({ operationId: 'scrapeWebPage', query: { url: `${origin}/`, wait_for: 100 }, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'url_not_allowed' });
    await closed.close();
  });
});
