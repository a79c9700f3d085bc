/**
 * The local test site the web provider's tests and the contract suite's live target fetch from,
 * on a loopback port: an article with headings, lists, a table, code, navigation, ads and an
 * inline image; robots.txt with a sitemap index (one sitemap gzipped); docs pages that link to
 * each other in a loop; redirects; a PDF; and hostile pages (slow, huge, a decompression bomb,
 * markup nested far too deep).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { makePdf } from './pdf.ts';

export const ARTICLE = `<!doctype html><html lang="en"><head><title>We launched the planner</title>
<meta name="description" content="After a year of beta, the planner is here."></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav><div class="ad-banner" id="ad-top">BUY NOW</div>
<article><h1>We launched the planner</h1><p>After a <strong>year</strong> of beta it is <a href="/docs">available to every team</a>.</p>
<h2>What changed</h2><ul><li>Boards load faster</li><li>Offline editing</li></ul>
<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Team</td><td>$49</td></tr></tbody></table>
<pre><code>const planner = await open();</code></pre>
<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="usage chart"> Teams told us boards were slow, so we rebuilt them from the ground up and measured every step of the way with real workloads.</p></article>
<footer class="site-footer">© 2026 Example</footer></body></html>`;

const PRICING = `<!doctype html><html lang="en"><head><title>Pricing</title></head><body><nav><a href="/">Home</a></nav>
<main><h1>Pricing</h1><p>Every plan includes unlimited boards, offline editing and the planner, billed monthly or yearly.</p>
<table><thead><tr><th>Plan</th><th>Monthly</th></tr></thead><tbody><tr><td>Starter</td><td>$0</td></tr><tr><td>Team</td><td>$49</td></tr><tr><td>Business</td><td>$99</td></tr></tbody></table></main></body></html>`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

const DOCS: Record<string, string> = {
  '/docs/': page('Documentation', '<p>Start here.</p><ul><li><a href="/docs/start">Getting started</a></li><li><a href="/docs/api">API</a></li></ul>'),
  '/docs/start': page('Getting started', '<p>Install the planner.</p><a href="/docs/api">Next: the API</a>'),
  '/docs/api': page('API', '<p>Every endpoint.</p><a href="/docs/guide">Next: the guide</a> <a href="/docs/">Back to the index</a>'),
  '/docs/guide': page('Guide', '<p>Plan a week.</p><a href="/docs/start">Back to the start</a>'),
};

type Answer = { status: number; type: string; body: string | Buffer; headers?: Record<string, string> };

function route(request: IncomingMessage, origin: string): Answer | ((send: (answer: Answer) => void) => void) {
  const path = request.url ?? '/';
  const html = (body: string): Answer => ({ status: 200, type: 'text/html; charset=utf-8', body });
  const xml = (body: string): Answer => ({ status: 200, type: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>${body}` });
  if (DOCS[path]) return html(DOCS[path]);
  switch (path) {
    case '/':
      return html(page('Home', '<a href="/blog/launch">Launch</a> <a href="/pricing">Pricing</a> <a href="/docs/">Docs</a>'));
    case '/robots.txt':
      return { status: 200, type: 'text/plain', body: `User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap-index.xml\n` };
    case '/sitemap-index.xml':
      return xml(`<sitemapindex><sitemap><loc>${origin}/sitemap-blog.xml</loc></sitemap><sitemap><loc>${origin}/sitemap-docs.xml.gz</loc></sitemap></sitemapindex>`);
    case '/sitemap-blog.xml':
      return xml(`<urlset><url><loc>${origin}/blog/launch</loc></url><url><loc>${origin}/pricing</loc></url></urlset>`);
    case '/sitemap-docs.xml.gz':
      return { status: 200, type: 'application/octet-stream', body: gzipSync(`<?xml version="1.0" encoding="UTF-8"?><urlset><url><loc>${origin}/docs/start</loc></url></urlset>`) };
    case '/article':
    case '/blog/launch':
      return html(ARTICLE);
    case '/pricing':
      return html(PRICING);
    case '/a':
    case '/b':
      return html(page(`Page ${path.slice(1).toUpperCase()}`, `<p>The page at ${path}.</p>`));
    case '/private/secret':
      return html(page('Secret', '<p>robots.txt keeps crawlers out.</p>'));
    case '/redirect':
      return { status: 302, type: 'text/plain', body: '', headers: { location: '/article' } };
    case '/loop':
      return { status: 302, type: 'text/plain', body: '', headers: { location: '/loop' } };
    case '/missing':
      return { status: 404, type: 'text/html', body: '<h1>Not here</h1>' };
    case '/forbidden':
      return { status: 403, type: 'text/html', body: '<h1>No</h1>' };
    case '/broken':
      return { status: 500, type: 'text/html', body: '<h1>Oops</h1>' };
    case '/plain':
      return { status: 200, type: 'text/plain', body: 'line one\nline <two>' };
    case '/report.pdf':
      return { status: 200, type: 'application/pdf', body: makePdf('Quarterly report', ['Revenue grew 12 percent', 'Costs fell 3 percent']) };
    case '/broken.pdf':
      return { status: 200, type: 'application/pdf', body: '%PDF-1.4 not really a PDF' };
    case '/agent':
      return html(`<html><body><p>${request.headers['user-agent']}</p></body></html>`);
    case '/huge':
      return { status: 200, type: 'text/html', body: Buffer.alloc(3 * 1024 * 1024, 'a') };
    case '/bomb':
      return { status: 200, type: 'text/html', body: gzipSync(Buffer.alloc(64 * 1024 * 1024)), headers: { 'content-encoding': 'gzip' } };
    case '/nested':
      return html(`<html><body><nav>Menu</nav>${'<div><span>deep</span>'.repeat(1000)}${'</div>'.repeat(1000)}</body></html>`);
    case '/abyss':
      return html(`<html><body>${'<div><span>deep</span>'.repeat(20_000)}${'</div>'.repeat(20_000)}</body></html>`);
    case '/slow':
      return (send) => setTimeout(() => send(html('<p>late</p>')), 3000);
    default:
      return { status: 404, type: 'text/plain', body: 'no such page' };
  }
}

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts the site on a free loopback port. */
export async function startTestSite(): Promise<TestSite> {
  let origin = '';
  const server = createServer((request, response) => {
    const send = ({ status, type, body, headers }: Answer) => {
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(body);
    };
    const answer = route(request, origin);
    if (typeof answer === 'function') answer(send);
    else send(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
