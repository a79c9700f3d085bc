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
const ROUNDS = 3;
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

/** CPU seconds a process has used, all its threads (user + system, from /proc; clock ticks of 10 ms). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  // Raw fetch rate: the same pages, same parallelism, no conversion, no storage.
  const rawFetch = async () => {
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: RAW_CONCURRENCY }, async () => {
      while (next < PAGES) {
        const index = next++;
        await (await fetch(`${origin}/site/${index}`)).text();
      }
    }));
    return PAGES / ((performance.now() - started) / 1000);
  };

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
  const crawl = async (limit: number) => {
    const submitted = (await (await fetch(`${baseUrl}/web/crawl`, { method: 'POST', headers, body: JSON.stringify({ url: `${origin}/site/0`, limit, max_depth: 10, formats: 'markdown,metadata', allow_backward_links: true }) })).json()) as { data: { job: { id: string } } };
    let job: { status: string; pages_completed: number } = { status: 'queued', pages_completed: 0 };
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      // limit=1: the poll reads the status; the pages stay on the server.
      job = ((await (await fetch(`${baseUrl}/web/jobs/${submitted.data.job.id}?limit=1`, { headers })).json()) as { data: { job: typeof job } }).data.job;
    }
    return job;
  };
  // Warm-up: the first submission and poll compile their contract validators and start the
  // conversion worker, once per process; timed apart so the crawl figures are the steady rate.
  const warmupStarted = performance.now();
  await crawl(1);
  await rawFetch();
  const warmupSeconds = (performance.now() - warmupStarted) / 1000;

  // Rounds of raw fetch then crawl, side by side, so a slow moment of the machine hits both.
  const rounds: { raw: number; crawl: number; cpuMsPerPage: number; status: string; pages: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const raw = await rawFetch();
    const cpuBefore = await cpuSeconds(server.pid!);
    const started = performance.now();
    const job = await crawl(PAGES);
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerPage = ((await cpuSeconds(server.pid!)) - cpuBefore) * 1000 / Math.max(1, job.pages_completed);
    rounds.push({ raw, crawl: job.pages_completed / seconds, cpuMsPerPage, status: job.status, pages: job.pages_completed });
  }
  const peakMb = await peakRssMb(server.pid!);
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;

  // HTML → Markdown on a large page.
  const large = pageHtml(1).replace(/<article>([\s\S]*)<\/article>/, (_, body: string) => `<article>${body.repeat(400)}</article>`);
  const bytes = Buffer.byteLength(large);
  const convertStarted = performance.now();
  const conversions = 5;
  for (let conversion = 0; conversion < conversions; conversion++) {
    htmlToDocument({ requestedUrl: `${origin}/large`, url: `${origin}/large`, status: 200, contentType: 'text/html', body: Buffer.from(large) }, { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, blockAds: true });
  }
  const megabytesPerSecond = (bytes * conversions) / (1024 * 1024) / ((performance.now() - convertStarted) / 1000);

  // The same conversion on the benchmark's own pages, in this process: the floor of a page's cost.
  const convertPage = (index: number) => htmlToDocument({ requestedUrl: `${origin}/site/${index}`, url: `${origin}/site/${index}`, status: 200, contentType: 'text/html', body: Buffer.from(pageHtml(index)) }, { formats: ['markdown', 'metadata', 'links'], onlyMainContent: true, removeBase64Images: true, blockAds: true });
  for (let index = 0; index < 100; index++) convertPage(index);
  const pageConvertStarted = performance.now();
  for (let index = 0; index < PAGES; index++) convertPage(index);
  const convertMsPerPage = (performance.now() - pageConvertStarted) / PAGES;

  const ratio = median(rounds.map((round) => round.crawl / round.raw));
  console.log(`web benchmark: ${PAGES}-page local site, ${ROUNDS} rounds (median shown), Node ${process.version}`);
  console.log(`warm-up (one-page crawl: first requests compile their validators, the conversion worker starts): ${warmupSeconds.toFixed(1)} s`);
  for (const [index, round] of rounds.entries()) {
    console.log(`  round ${index + 1}: crawl ${round.crawl.toFixed(0)} pages/s (${round.status}, ${round.pages} pages, server CPU ${round.cpuMsPerPage.toFixed(2)} ms/page), raw fetch ${round.raw.toFixed(0)} pages/s, ratio ${(round.crawl / round.raw).toFixed(2)}`);
  }
  console.log(`crawl through the server process: ${median(rounds.map((round) => round.crawl)).toFixed(0)} pages/s (server CPU, all threads: ${median(rounds.map((round) => round.cpuMsPerPage)).toFixed(2)} ms per page)`);
  console.log(`raw fetch of the same pages (${RAW_CONCURRENCY} at a time, no conversion): ${median(rounds.map((round) => round.raw)).toFixed(0)} pages/s`);
  console.log(`ratio crawl / raw: ${ratio.toFixed(2)} (goal: at least 0.33 — ${ratio >= 1 / 3 ? 'met' : 'NOT met'})`);
  console.log(`server peak RSS: ${peakMb.toFixed(0)} MB (goal: under 300 MB — ${peakMb < 300 ? 'met' : 'NOT met'})`);
  console.log(`HTML to Markdown of one benchmark page (${(Buffer.byteLength(pageHtml(1)) / 1024).toFixed(1)} KB), one thread: ${convertMsPerPage.toFixed(2)} ms`);
  console.log(`HTML to Markdown on a ${(bytes / 1024 / 1024).toFixed(1)} MB page: ${megabytesPerSecond.toFixed(1)} MB/s`);
} finally {
  site.close();
  await rm(folder, { recursive: true, force: true });
}
