/**
 * `npm run bench:web`: a live crawl of a 1,000-page local site through the server process (pages
 * per second and the server's peak RSS), beside the raw fetch rate of the same pages without
 * conversion, measured in the same run; and HTML-to-Markdown throughput on a large page and the
 * time of one benchmark page. Each figure is printed beside its goal, met or not.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fetch } from 'undici';
import { htmlToDocument } from '../server/providers/web/html-to-document.ts';
import { goalReport, median, roundsGoal } from './bench-goals.ts';
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

/**
 * CPU milliseconds of a process per kind of thread (its name in /proc: MainThread, the conversion
 * pool's WorkerThread, V8's helper threads V8Worker for GC and compiling), summed over threads.
 */
async function cpuMsByThread(pid: number): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const thread of await readdir(`/proc/${pid}/task`)) {
    // A thread may end between the listing and the read.
    const stat = await readFile(`/proc/${pid}/task/${thread}/stat`, 'utf8').catch(() => undefined);
    if (!stat) continue;
    const name = /\((.*)\)/.exec(stat)?.[1] ?? '?';
    const fields = stat.replace(/^.*\) /, '').split(' ');
    byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return byName;
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
  /**
   * When to look at the job next: every 100 ms, or sooner when the pages still to come, at the rate
   * so far, are done before that. Polling every 100 ms alone rounded a 0.7 s crawl up to the next
   * poll, up to 14% of its time (every round of a run came out at the same 1,370 pages/s), and
   * polling often all along would load the server it measures.
   */
  const nextPollMs = (done: number, limit: number, elapsedMs: number) => {
    if (done === 0) return 100;
    const remainingMs = ((limit - done) * elapsedMs) / done;
    return Math.max(5, Math.min(100, remainingMs));
  };
  const crawl = async (limit: number) => {
    const submitted = (await (await fetch(`${baseUrl}/web/crawl`, { method: 'POST', headers, body: JSON.stringify({ url: `${origin}/site/0`, limit, max_depth: 10, formats: 'markdown,metadata', allow_backward_links: true }) })).json()) as { data: { job: { id: string } } };
    const submittedAt = performance.now();
    let job: { status: string; pages_completed: number } = { status: 'queued', pages_completed: 0 };
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, nextPollMs(job.pages_completed, limit, performance.now() - submittedAt)));
      // limit=1: the poll reads the status; the pages stay on the server.
      job = ((await (await fetch(`${baseUrl}/web/jobs/${submitted.data.job.id}?limit=1`, { headers })).json()) as { data: { job: typeof job } }).data.job;
    }
    return job;
  };
  // Warm-up: the first submission and poll compile their contract validators and start the
  // conversion worker, once per process; a whole crawl of the site then lets the crawl's own code
  // (fetch, conversion hand-off, the step's transaction) be compiled optimised, which a one-page
  // crawl did not: the first timed round ran about 1.6 times the CPU per page of the others.
  // Timed apart so the crawl figures are the steady rate.
  const warmupStarted = performance.now();
  await crawl(PAGES);
  await rawFetch();
  const warmupSeconds = (performance.now() - warmupStarted) / 1000;

  // Rounds of raw fetch then crawl, side by side, so a slow moment of the machine hits both.
  const rounds: { raw: number; crawl: number; cpuMsPerPage: number; status: string; pages: number }[] = [];
  const threadsBefore = await cpuMsByThread(server.pid!);
  for (let round = 0; round < ROUNDS; round++) {
    const raw = await rawFetch();
    const cpuBefore = await cpuSeconds(server.pid!);
    const started = performance.now();
    const job = await crawl(PAGES);
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerPage = ((await cpuSeconds(server.pid!)) - cpuBefore) * 1000 / Math.max(1, job.pages_completed);
    rounds.push({ raw, crawl: job.pages_completed / seconds, cpuMsPerPage, status: job.status, pages: job.pages_completed });
  }
  const threadsAfter = await cpuMsByThread(server.pid!);
  const pagesCrawled = rounds.reduce((sum, round) => sum + round.pages, 0);
  const byThread = [...threadsAfter].map(([name, ms]) => [name, ((ms - (threadsBefore.get(name) ?? 0)) * 1000) / Math.max(1, pagesCrawled)] as const).filter(([, us]) => us > 0);
  const peakMb = await peakRssMb(server.pid!);
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;

  // HTML → Markdown on a large page and on the benchmark's own pages, in this process, three
  // rounds each: the floor of a page's cost. Both take the fast path (htmlparser2 + @mdream/js,
  // see providers/web/tree-document.ts): the benchmark pages mark their content with <article>. Timed in CPU time of this thread-bound loop, which a
  // shared machine disturbs less than wall time.
  const large = pageHtml(1).replace(/<article>([\s\S]*)<\/article>/, (_, body: string) => `<article>${body.repeat(400)}</article>`);
  const bytes = Buffer.byteLength(large);
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const convertLarge = () => htmlToDocument({ requestedUrl: `${origin}/large`, url: `${origin}/large`, status: 200, contentType: 'text/html', body: Buffer.from(large) }, { formats: ['markdown'], onlyMainContent: false, removeBase64Images: true, blockAds: true });
  const convertPage = (index: number) => htmlToDocument({ requestedUrl: `${origin}/site/${index}`, url: `${origin}/site/${index}`, status: 200, contentType: 'text/html', body: Buffer.from(pageHtml(index)) }, { formats: ['markdown', 'metadata', 'links'], onlyMainContent: true, removeBase64Images: true, blockAds: true });
  convertLarge();
  for (let index = 0; index < 100; index++) convertPage(index);
  const megabytesPerSecond: number[] = [];
  const msPerPage: number[] = [];
  for (let round = 0; round < 3; round++) {
    const conversions = 5;
    let started = cpuMs();
    for (let conversion = 0; conversion < conversions; conversion++) convertLarge();
    megabytesPerSecond.push((bytes * conversions) / (1024 * 1024) / ((cpuMs() - started) / 1000));
    started = cpuMs();
    for (let index = 0; index < PAGES; index++) convertPage(index);
    msPerPage.push((cpuMs() - started) / PAGES);
  }

  const ratios = rounds.map((round) => round.crawl / round.raw);
  console.log(`web benchmark: ${PAGES}-page local site, ${ROUNDS} rounds (median shown), Node ${process.version}`);
  console.log(`warm-up (a whole crawl: first requests compile their validators, the conversion worker starts, the crawl code is optimised): ${warmupSeconds.toFixed(1)} s`);
  for (const [index, round] of rounds.entries()) {
    console.log(`  round ${index + 1}: crawl ${round.crawl.toFixed(0)} pages/s (${round.status}, ${round.pages} pages, server CPU ${round.cpuMsPerPage.toFixed(2)} ms/page), raw fetch ${round.raw.toFixed(0)} pages/s, ratio ${(round.crawl / round.raw).toFixed(2)}`);
  }
  console.log(`crawl through the server process: ${median(rounds.map((round) => round.crawl)).toFixed(0)} pages/s (server CPU, all threads: ${median(rounds.map((round) => round.cpuMsPerPage)).toFixed(2)} ms per page)`);
  console.log(`server CPU by thread over the timed rounds (µs per page): ${byThread.map(([name, us]) => `${name} ${us.toFixed(0)}`).join(', ')}`);
  console.log(`raw fetch of the same pages (${RAW_CONCURRENCY} at a time, no conversion): ${median(rounds.map((round) => round.raw)).toFixed(0)} pages/s`);
  const smallKb = (Buffer.byteLength(pageHtml(1)) / 1024).toFixed(1);
  const largeMb = (bytes / 1024 / 1024).toFixed(1);
  console.log(goalReport([
    roundsGoal('crawl ÷ raw fetch of the same pages (same round)', ratios, '≥', 0.33),
    { figure: 'server peak RSS (MB)', value: peakMb.toFixed(0), goal: '< 300', met: peakMb < 300 },
    roundsGoal(`HTML → Markdown (htmlparser2 + @mdream/js), ${largeMb} MB page (MB/s of CPU time)`, megabytesPerSecond, '≥', 3, 1),
    roundsGoal(`HTML → Markdown (htmlparser2 + @mdream/js), ${smallKb} KB page (ms of CPU time)`, msPerPage, '≤', 0.5),
  ]));
} finally {
  site.close();
  await rm(folder, { recursive: true, force: true });
}
