/**
 * `npm run bench:mock`: the mock's cold start (spawn to first 200, median of 5), its throughput on a
 * valid scrape for 5 s, and the wall time of the contract suite against it. Each figure stands
 * beside a baseline measured in the same run: a bare Node HTTP server answering the same JSON.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './paths.ts';

const SCRAPE_PATH = '/web/scrape?url=https%3A%2F%2Fexample.com%2Fblog%2Flaunch';
const HEADERS = { 'x-api-key': 'wsdq_bench_key' };
const RUNS = 5;
const LOAD_SECONDS = 5;

interface Started {
  baseUrl: string;
  coldStartMs: number;
  stop(): Promise<void>;
}

/** Spawns `node <args>` with PORT=0, and times spawn → listening line → first 200 on the scrape path. */
async function startAndTime(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+\/v1)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  const first = await fetch(`${baseUrl}${SCRAPE_PATH}`, { headers: HEADERS });
  await first.arrayBuffer();
  if (first.status !== 200) throw new Error(`first answer was ${first.status}`);
  const coldStartMs = performance.now() - startedAt;
  return {
    baseUrl,
    coldStartMs,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function coldStart(args: string[]): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = await startAndTime(args);
    times.push(started.coldStartMs);
    await started.stop();
  }
  return median(times);
}

async function throughput(baseUrl: string): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const result = await autocannon({ url: `${baseUrl}${SCRAPE_PATH}`, headers: HEADERS, connections: 16, duration: LOAD_SECONDS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/** A bare HTTP server answering the scrape example's JSON, for the baselines. */
async function writeBaseline(dir: string, body: string): Promise<string> {
  const file = join(dir, 'bare-server.mjs');
  await writeFile(file, `
import { createServer } from 'node:http';
const body = ${JSON.stringify(body)};
const server = createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`);
  return file;
}

/** One start with Node's compile cache and the mock's operations cache both empty. */
async function firstStart(dir: string): Promise<number> {
  await rm(join(projectRoot, 'node_modules', '.cache', 'wsdq-mock'), { recursive: true, force: true });
  const started = await startAndTime(['mock/main.ts'], { NODE_COMPILE_CACHE: join(dir, 'compile-cache') });
  await started.stop();
  return started.coldStartMs;
}

async function suiteWallTime(): Promise<number> {
  const startedAt = performance.now();
  const vitest = join(projectRoot, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', 'contract-tests/suite'], {
    cwd: projectRoot,
    env: { ...process.env, CONTRACT_TARGETS: 'mock' },
    stdio: 'ignore',
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the contract suite failed against the mock (exit ${code})`);
  return performance.now() - startedAt;
}

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(10);

const mock = await startAndTime(['mock/main.ts']);
const exampleBody = await (await fetch(`${mock.baseUrl}${SCRAPE_PATH}`, { headers: HEADERS })).text();
const mockLoad = await throughput(mock.baseUrl);
await mock.stop();

const dir = await mkdtemp(join(tmpdir(), 'bench-mock-'));
try {
  const bareFile = await writeBaseline(dir, exampleBody);
  const bare = await startAndTime([bareFile]);
  const bareLoad = await throughput(bare.baseUrl);
  await bare.stop();

  const firstStartMs = await firstStart(dir);
  const mockColdMs = await coldStart(['mock/main.ts']);
  const bareColdMs = await coldStart([bareFile]);
  const suiteMs = await suiteWallTime();

  console.log(`mock benchmark (${RUNS} cold starts each, ${LOAD_SECONDS} s of load with 16 connections, Node ${process.version})`);
  console.log(`${''.padEnd(38)}${'mock'.padStart(10)}${'bare node'.padStart(10)}${'ratio'.padStart(10)}`);
  console.log(`${'cold start to first 200, median (ms)'.padEnd(38)}${format(mockColdMs)}${format(bareColdMs)}${format(mockColdMs / bareColdMs, 2)}`);
  console.log(`${'first start, empty caches (ms)'.padEnd(38)}${format(firstStartMs)}`);
  console.log(`${'valid scrape, requests/second'.padEnd(38)}${format(mockLoad.rps)}${format(bareLoad.rps)}${format(mockLoad.rps / bareLoad.rps, 2)}`);
  console.log(`${'latency p50 (ms)'.padEnd(38)}${format(mockLoad.p50, 1)}${format(bareLoad.p50, 1)}`);
  console.log(`${'latency p99 (ms)'.padEnd(38)}${format(mockLoad.p99, 1)}${format(bareLoad.p99, 1)}`);
  console.log(`${'non-2xx answers under load'.padEnd(38)}${format(mockLoad.non2xx)}${format(bareLoad.non2xx)}`);
  console.log(`${'contract suite against the mock (ms)'.padEnd(38)}${format(suiteMs)}`);
  console.log(`goals: cold start under 2000 ms (${mockColdMs < 2000 ? 'met' : 'NOT met'}), suite under 10000 ms (${suiteMs < 10_000 ? 'met' : 'NOT met'})`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
