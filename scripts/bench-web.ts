/**
 * `npm run bench:web`: a live crawl of a 1,000-page local site through the server process (pages
 * per second and the server's peak RSS), beside the raw fetch rate of the same pages without
 * conversion, measured in the same run; and HTML-to-Markdown throughput on a large page.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fetch } from 'undici';
import { htmlToDocument } from '../server/providers/web/html-to-document.ts';
import { projectRoot } from './paths.ts';

const PAGES = 1000;
const RAW_CONCURRENCY = 4;
const run = promisify(execFile);

function pageHtml(index: number): string {
  // A binary tree plus a chain: every page is within depth 10 of page 0.
  const links = [2 * index + 1, 2 * index + 2, index + 1].filter((next) => next < PAGES).map((next) => `<li><a href="/site/${next}">Page ${next}</a></li>`).join('');
  const rows = Array.from({ length: 8 }, (_, row) => `<tr><td>Item ${row}</td><td>${(index * 7 + row) % 100}</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><title>Page ${index}</title><meta name="description" content="Page ${index} of the benchmark site"></head>
<body><nav><a href="/">Home</a></nav><article><h1>Page ${index}</h1>
${Array.from({ length: 6 }, (_, paragraph) => `<p>Paragraph ${paragraph} of page ${index}: the quick brown fox jumps over the lazy dog, again and again, to give the converter some text to read.</p>`).join('\n')}
<h2>Table</h2><table><thead><tr><th>Item</th><th>Value</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Links</h2><ul>${links}</ul><pre><code>const page = ${index};</code></pre></article><footer>Footer</footer></body></html>`;
}

async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

const site = createServer((request, response) => {
  const index = Number(/\/site\/(\d+)/.exec(request.url ?? '')?.[1] ?? 0);
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(pageHtml(index));
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const folder = await mkdtemp(join(tmpdir(), 'bench-web-'));

try {
  // Raw fetch rate: the same pages, same parallelism, no conversion, no storage.
  const rawStarted = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: RAW_CONCURRENCY }, async () => {
    while (next < PAGES) {
      const index = next++;
      await (await fetch(`${origin}/site/${index}`)).text();
    }
  }));
  const rawPagesPerSecond = PAGES / ((performance.now() - rawStarted) / 1000);

  // The crawl, through the real server process.
  const env = { ...process.env, DATABASE_URL: join(folder, 'bench.sqlite'), ALLOW_PRIVATE_NETWORK: 'true', JOB_TICK_MS: '10', LOG_LEVEL: 'warn', PORT: '0', NODE_ENV: 'production', RATE_LIMIT: '1000000/60' };
  const key = (await run(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '100000'], { cwd: projectRoot, env })).stdout.trim().split('\n').at(-1)!;
  const server = spawn(process.execPath, ['server/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const baseUrl = await new Promise<string>((resolve) => {
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
  });
  server.stdout.resume();
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const crawlStarted = performance.now();
  const submitted = (await (await fetch(`${baseUrl}/web/crawl`, { method: 'POST', headers, body: JSON.stringify({ url: `${origin}/site/0`, limit: PAGES, max_depth: 10, formats: 'markdown,metadata', allow_backward_links: true }) })).json()) as { data: { job: { id: string } } };
  let job: { status: string; pages_completed: number } = { status: 'queued', pages_completed: 0 };
  while (job.status === 'queued' || job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = ((await (await fetch(`${baseUrl}/web/jobs/${submitted.data.job.id}`, { headers })).json()) as { data: { job: typeof job } }).data.job;
  }
  const crawlSeconds = (performance.now() - crawlStarted) / 1000;
  const peakMb = await peakRssMb(server.pid!);
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;

  // HTML → Markdown on a large page.
  const large = pageHtml(1).replace(/<article>([\s\S]*)<\/article>/, (_, body: string) => `<article>${body.repeat(400)}</article>`);
  const bytes = Buffer.byteLength(large);
  const convertStarted = performance.now();
  const rounds = 5;
  for (let round = 0; round < rounds; round++) {
    htmlToDocument({ requestedUrl: `${origin}/large`, url: `${origin}/large`, status: 200, contentType: 'text/html', body: Buffer.from(large) }, { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, blockAds: true });
  }
  const megabytesPerSecond = (bytes * rounds) / (1024 * 1024) / ((performance.now() - convertStarted) / 1000);

  const crawlPagesPerSecond = job.pages_completed / crawlSeconds;
  console.log(`web benchmark: ${PAGES}-page local site, Node ${process.version}`);
  console.log(`crawl (server process, status ${job.status}, ${job.pages_completed} pages): ${crawlPagesPerSecond.toFixed(0)} pages/s in ${crawlSeconds.toFixed(1)} s`);
  console.log(`raw fetch of the same pages (${RAW_CONCURRENCY} at a time, no conversion): ${rawPagesPerSecond.toFixed(0)} pages/s`);
  console.log(`ratio crawl / raw: ${(crawlPagesPerSecond / rawPagesPerSecond).toFixed(2)} (goal: at least 0.33 — ${crawlPagesPerSecond / rawPagesPerSecond >= 1 / 3 ? 'met' : 'NOT met'})`);
  console.log(`server peak RSS: ${peakMb.toFixed(0)} MB (goal: under 300 MB — ${peakMb < 300 ? 'met' : 'NOT met'})`);
  console.log(`HTML to Markdown on a ${(bytes / 1024 / 1024).toFixed(1)} MB page: ${megabytesPerSecond.toFixed(1)} MB/s`);
} finally {
  site.close();
  await rm(folder, { recursive: true, force: true });
}
