/**
 * wait_for and screenshots in headless Chromium (Debian's, or CHROMIUM_PATH), on a local site
 * reached by a name only the service's resolver knows: when the page loads, every request it made
 * went through the guarded connection pool, since Chromium itself cannot resolve that name.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataProvider } from '../types.ts';
import { HeadlessBrowser } from './browser.ts';
import { guardedAgent, type Resolver } from '../../outbound/guarded-agent.ts';
import type { Agent } from 'undici';
import { testWebProvider } from '../../test-support/web-provider.ts';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const PAGES: Record<string, string> = {
  '/': `<html><head><title>Late page</title></head><body><h1>Dashboard</h1><div id="late"></div>
<script>setTimeout(() => { document.getElementById('late').innerHTML = '<p>Rendered by script after loading, with the numbers for this quarter.</p>'; }, 300);</script></body></html>`,
  '/app': `<html><head><title>App</title><link rel="stylesheet" href="/style.css"></head><body><h1>App</h1><img src="/logo.svg" alt="logo">
<script>
fetch('/api/numbers').then((response) => response.text()).then((text) => document.body.insertAdjacentHTML('beforeend', '<p>' + text + '</p>'));
fetch('/moved').then((response) => response.text()).then((text) => document.body.insertAdjacentHTML('beforeend', '<p>After a redirect: ' + text + '</p>'));
const socket = new WebSocket('ws://' + location.host + '/socket');
socket.onclose = () => document.body.insertAdjacentHTML('beforeend', '<p>The socket was refused.</p>');
</script></body></html>`,
  '/api/numbers': 'Revenue grew 12 percent, from the API',
  '/style.css': 'h1 { color: navy; }',
  '/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
};

describe('the web provider with a browser', () => {
  let site: Server;
  let port: number;
  const requested: string[] = [];
  let upgrades = 0;
  /** `site.test` is the local site; any other name is unknown. */
  const resolver: Resolver = (hostname, callback) => {
    if (hostname === 'site.test' || hostname === 'intranet.test') return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
  };
  let browser: HeadlessBrowser;
  let openAgent: Agent;
  let provider: DataProvider;

  beforeAll(async () => {
    site = createServer((request, response) => {
      const path = request.url ?? '/';
      requested.push(path);
      if (path === '/old' || path === '/moved') {
        response.writeHead(302, { location: path === '/old' ? '/' : '/api/numbers' });
        return response.end();
      }
      const body = PAGES[path];
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': path.endsWith('.css') ? 'text/css' : path.endsWith('.svg') ? 'image/svg+xml' : path.startsWith('/api') ? 'text/plain' : 'text/html' });
      response.end(body ?? 'no such page');
    });
    site.on('upgrade', (_request, socket) => {
      upgrades++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
    openAgent = guardedAgent({ allowPrivateNetwork: true }, resolver);
    browser = new HeadlessBrowser(CHROMIUM_PATH, { allowPrivateNetwork: true }, openAgent);
    provider = testWebProvider({ policy: { allowPrivateNetwork: true }, browser, resolve: resolver });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
    await openAgent.destroy();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  const scrape = (query: Record<string, unknown>, on: DataProvider = provider) =>
    on.fetch({ operationId: 'scrapeWebPage', query: { url: `http://site.test:${port}/`, ...query }, signal: new AbortController().signal });

  it('waits wait_for milliseconds so script-rendered content is read', async () => {
    const data = await scrape({ wait_for: 1000, formats: 'markdown', only_main_content: false });
    expect(data.markdown).toContain('Rendered by script after loading');
  });

  it('takes a PNG screenshot as a data URL', async () => {
    const data = await scrape({ formats: 'screenshot,metadata', screenshot_full_page: true });
    expect(String(data.screenshot)).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(data.metadata).toMatchObject({ title: 'Late page', status_code: 200 });
  });

  it('fetches the page, its sub-resources and its script requests itself (redirects too), and refuses its WebSocket', async () => {
    requested.length = 0;
    const data = await scrape({ url: `http://site.test:${port}/app`, wait_for: 800, formats: 'markdown', only_main_content: false });
    expect(data.markdown).toContain('Revenue grew 12 percent, from the API');
    // Chromium cannot resolve site.test: the redirected request was followed by the service.
    expect(data.markdown).toContain('After a redirect: Revenue grew 12 percent, from the API');
    expect(data.markdown).toContain('The socket was refused.');
    expect(requested).toEqual(expect.arrayContaining(['/app', '/style.css', '/logo.svg', '/api/numbers']));
    expect(upgrades).toBe(0);
  });

  it('follows a redirect of the page itself, each hop checked, and reports the final URL', async () => {
    const data = await scrape({ url: `http://site.test:${port}/old`, wait_for: 100, formats: 'metadata' });
    expect(data.metadata).toMatchObject({ title: 'Late page', url: `http://site.test:${port}/` });
  });

  it('refuses a name that resolves to a non-public address when the policy is public-only, at connect time', async () => {
    const closed = new HeadlessBrowser(CHROMIUM_PATH, { allowPrivateNetwork: false }, guardedAgent({ allowPrivateNetwork: false }, resolver));
    const closedProvider = testWebProvider({ policy: { allowPrivateNetwork: false }, browser: closed, resolve: resolver });
    requested.length = 0;
    await expect(scrape({ url: `http://intranet.test:${port}/`, wait_for: 100 }, closedProvider)).rejects.toMatchObject({ code: 'url_not_allowed' });
    await expect(scrape({ url: `http://127.0.0.1:${port}/`, wait_for: 100 }, closedProvider)).rejects.toMatchObject({ code: 'url_not_allowed' });
    expect(requested).toEqual([]);
    await closed.close();
  });
});
