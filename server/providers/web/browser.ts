/**
 * Pages that need a real browser (`wait_for`, screenshots): headless Chromium through
 * playwright-core, when one is configured (CHROMIUM_PATH). Chromium fetches nothing itself: every
 * request the page makes, its sub-resources included, is fetched by the service over the guarded
 * connection pool (scheme checked, the host resolved once, checked, and connected to at that very
 * address, so DNS rebinding cannot reach a private one) and handed back to the page. Redirects go
 * back to the page, which requests the next hop through the same path. WebSockets and service
 * workers are refused: a page is read, not run as an application.
 */
import type { Browser, Frame, Response, Route } from 'playwright-core';
import { ProviderError } from '../types.ts';
import { checkedUrl, type AddressPolicy } from '../../outbound/address-policy.ts';
import { DEFAULT_LIMITS, exchange, followRedirects, header, REDIRECT_STATUSES, type FetchedPage } from '../../outbound/fetch-page.ts';
import type { Agent } from 'undici';
import { NON_PUBLIC_ADDRESS } from '../../outbound/guarded-agent.ts';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--dns-prefetch-disable', '--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];
const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 (compatible; WSDQ/1.0)' };
/** Headers that describe one connection, not the message: never passed between the page and the site. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-length', 'content-encoding']);

export interface RenderOptions {
  waitForMs: number;
  timeoutMs: number;
  mobile: boolean;
  screenshot: 'none' | 'viewport' | 'full_page';
}

export interface RenderedPage extends FetchedPage {
  screenshot: string | null;
}

/** What the page's main-frame navigation met: a redirect to follow, or the first refused target. */
interface Navigation {
  redirectTo?: string;
  refused?: string;
}

function messageHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name.toLowerCase())) continue;
    kept[name] = Array.isArray(value) ? value.join(name.toLowerCase() === 'set-cookie' ? '\n' : ', ') : value;
  }
  return kept;
}

export class HeadlessBrowser {
  private readonly executablePath: string;
  private readonly policy: AddressPolicy;
  private readonly agent: Agent;
  private browser: Promise<Browser> | undefined;

  /** `agent` is the guarded agent (server/outbound/) every request of a page goes through, the one main.ts builds. */
  constructor(executablePath: string, policy: AddressPolicy, agent: Agent) {
    this.executablePath = executablePath;
    this.policy = policy;
    this.agent = agent;
  }

  /**
   * Fetches one request of the page over the guarded pool and hands the answer to the page.
   * Chromium would follow a redirect it is handed without asking again, so none is handed over:
   * the main frame's is recorded for `render` to navigate to, the others are followed here, every
   * hop checked. A target the policy refuses is aborted and recorded.
   */
  private async fulfil(route: Route, mainFrame: Frame, navigation: Navigation): Promise<void> {
    const pageRequest = route.request();
    const url = pageRequest.url();
    if (url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return route.continue();
    const context = { agent: this.agent, policy: this.policy, limits: DEFAULT_LIMITS };
    const outgoing = {
      method: pageRequest.method(),
      headers: messageHeaders(await pageRequest.allHeaders()),
      body: pageRequest.postDataBuffer() ?? undefined,
      signal: AbortSignal.timeout(DEFAULT_LIMITS.timeoutMs),
    };
    try {
      if (pageRequest.isNavigationRequest() && pageRequest.frame() === mainFrame) {
        const answer = await exchange(url, context, outgoing);
        const location = header(answer.headers, 'location');
        if (REDIRECT_STATUSES.has(answer.status) && location) {
          navigation.redirectTo = new URL(location, url).href;
          return route.abort('aborted');
        }
        return route.fulfill({ status: answer.status, headers: messageHeaders(answer.headers), body: answer.body });
      }
      const answer = await followRedirects(url, context, outgoing);
      await route.fulfill({ status: answer.status, headers: messageHeaders(answer.headers), body: answer.body });
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'url_not_allowed' || code === NON_PUBLIC_ADDRESS) {
        navigation.refused ??= url;
        return route.abort('blockedbyclient');
      }
      return route.abort('failed');
    }
  }

  /** Loads `url` in a fresh context, waits `waitForMs`, and returns its HTML (and a PNG screenshot as a data URL). */
  async render(url: string, options: RenderOptions): Promise<RenderedPage> {
    // playwright-core is loaded with the first page that needs it: a server that never renders never pays for it.
    this.browser ??= import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS }));
    const browser = await this.browser;
    const context = await browser.newContext({ ...(options.mobile ? MOBILE : {}), serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const navigation: Navigation = {};
      await context.route('**/*', (route) => this.fulfil(route, page.mainFrame(), navigation));
      await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'WebSockets are not opened when reading a page.' }));
      const deadline = Date.now() + options.timeoutMs;
      let target = checkedUrl(url, this.policy).href;
      let response: Response | null = null;
      for (let hop = 0; ; hop++) {
        navigation.redirectTo = undefined;
        const loaded = await page.goto(target, { timeout: Math.max(1, deadline - Date.now()), waitUntil: 'load' }).then(
          (answer) => ({ answer }),
          (error: Error) => ({ error }),
        );
        if ('answer' in loaded) {
          response = loaded.answer;
          break;
        }
        if (navigation.refused === target) throw new ProviderError('url_not_allowed', `${target} targets a non-public address: only public addresses may be fetched.`);
        if (navigation.redirectTo) {
          if (hop >= DEFAULT_LIMITS.maxRedirects) throw new ProviderError('upstream_failed', `The page ${url} redirects more than ${DEFAULT_LIMITS.maxRedirects} times.`);
          target = checkedUrl(navigation.redirectTo, this.policy, 'a redirect').href;
          continue;
        }
        if (/Timeout/i.test(loaded.error.message)) throw new ProviderError('upstream_timeout', `The page did not load within the timeout of ${options.timeoutMs} ms.`);
        throw new ProviderError('upstream_failed', `The page could not be loaded: ${loaded.error.message.split('\n')[0]}`);
      }
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
