/**
 * Pages that need a real browser (`wait_for`, screenshots): headless Chromium through
 * playwright-core, when one is configured (CHROMIUM_PATH). Every request the page makes, its
 * sub-resources included, is checked against the address policy (scheme, IP literal, and the
 * addresses its host name resolves to) and aborted when it targets a non-public address.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { Browser } from 'playwright-core';
import { ProviderError } from '../types.ts';
import { checkedUrl, isPublicAddress, type AddressPolicy } from './address-policy.ts';
import type { FetchedPage } from './fetch-page.ts';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 (compatible; WSDQ/1.0)' };

export interface RenderOptions {
  waitForMs: number;
  timeoutMs: number;
  mobile: boolean;
  screenshot: 'none' | 'viewport' | 'full_page';
}

export interface RenderedPage extends FetchedPage {
  screenshot: string | null;
}

async function allowed(url: string, policy: AddressPolicy): Promise<boolean> {
  if (url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return true;
  try {
    const parsed = checkedUrl(url, policy);
    if (policy.allowPrivateNetwork) return true;
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host)) return isPublicAddress(host);
    const addresses = await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
  } catch {
    return false;
  }
}

export class HeadlessBrowser {
  private readonly executablePath: string;
  private readonly policy: AddressPolicy;
  private browser: Promise<Browser> | undefined;

  constructor(executablePath: string, policy: AddressPolicy) {
    this.executablePath = executablePath;
    this.policy = policy;
  }

  /** Loads `url` in a fresh context, waits `waitForMs`, and returns its HTML (and a PNG screenshot as a data URL). */
  async render(url: string, options: RenderOptions): Promise<RenderedPage> {
    // playwright-core is loaded with the first page that needs it: a server that never renders never pays for it.
    this.browser ??= import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS }));
    const browser = await this.browser;
    const context = await browser.newContext(options.mobile ? MOBILE : {});
    try {
      let refused: string | undefined;
      await context.route('**/*', async (route) => {
        const target = route.request().url();
        if (await allowed(target, this.policy)) return route.continue();
        refused ??= target;
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      const response = await page.goto(url, { timeout: options.timeoutMs, waitUntil: 'load' }).catch((error: Error) => {
        if (refused === url) throw new ProviderError('url_not_allowed', `${refused} targets a non-public address: only public addresses may be fetched.`);
        if (/Timeout/i.test(error.message)) throw new ProviderError('upstream_timeout', `The page did not load within the timeout of ${options.timeoutMs} ms.`);
        throw new ProviderError('upstream_failed', `The page could not be loaded: ${error.message.split('\n')[0]}`);
      });
      if (options.waitForMs > 0) await page.waitForTimeout(options.waitForMs);
      const html = await page.content();
      const screenshot = options.screenshot === 'none' ? null : `data:image/png;base64,${(await page.screenshot({ fullPage: options.screenshot === 'full_page' })).toString('base64')}`;
      return {
        requestedUrl: url,
        url: page.url(),
        status: response?.status() ?? 200,
        contentType: response?.headers()['content-type']?.split(';')[0]?.trim() ?? 'text/html',
        body: Buffer.from(html),
        screenshot,
      };
    } finally {
      await context.close();
    }
  }

  async close(): Promise<void> {
    if (this.browser) await (await this.browser).close();
  }
}
