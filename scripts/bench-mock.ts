/**
 * `npm run bench:mock`: the mock's cold start (spawn to first 200, median of 5), its throughput on a
 * valid scrape, and the wall time of the contract suite against it. Each figure stands beside
 * baselines measured in the same run: a bare Node HTTP server answering the same JSON, and
 * `prism mock` (Prism's own CLI, what a frontend team would otherwise run) on the same contract
 * and the same request. Throughput is measured in rounds, the three servers one after another in
 * each while all three run, so a slow moment of the machine hits all three; the ratios are per round.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goalReport, median, medianAndRange, roundsGoal } from './bench-goals.ts';
import { processCpuMs } from './process-cpu.ts';
import { projectRoot } from './paths.ts';

const SCRAPE_PATH = '/web/scrape?url=https%3A%2F%2Fexample.com%2Fblog%2Flaunch';
const HEADERS = { 'x-api-key': 'wsdq_bench_key' };
const COLD_STARTS = 5;
const ROUNDS = 8;
const LOAD_SECONDS = 2;
const WARM_UP_SECONDS = 2;
const PRISM_CLI = join(projectRoot, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

interface Server {
  /** The URL the contract's paths hang off: `…/v1` for the mock, the root for `prism mock`. */
  baseUrl: string;
  coldStartMs: number;
  pid: number;
  stop(): Promise<void>;
}

/** How to start one of the servers compared: `node <args>`, and the line that gives its base URL. */
interface Command {
  args: () => Promise<string[]>;
  listening: RegExp;
  env?: Record<string, string>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Spawns the command with PORT=0, and times spawn → listening line → first 200 on the scrape path. */
async function startAndTime(command: Command): Promise<Server> {
  const args = await command.args();
  const startedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...command.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // Read until the listening line only: the servers log a line per request, which the benchmark drops.
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = command.listening.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      resolve(match[1]!.replace(/\/$/, ''));
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  const first = await fetch(`${baseUrl}${SCRAPE_PATH}`, { headers: HEADERS });
  await first.arrayBuffer();
  if (first.status !== 200) throw new Error(`${args.join(' ')}: the first answer was ${first.status}`);
  const coldStartMs = performance.now() - startedAt;
  return {
    baseUrl,
    coldStartMs,
    pid: child.pid!,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function coldStart(command: Command, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = await startAndTime(command);
    times.push(started.coldStartMs);
    await started.stop();
  }
  return times;
}

interface Load { rps: number; p50: number; p99: number; non2xx: number; cpuMsPerRequest: number }

/**
 * `seconds` of load on the scrape path. Besides requests per second, the server's own CPU time per
 * request: what the server spends, whatever else the machine runs.
 */
async function load(server: Server, seconds: number): Promise<Load> {
  const cpuBefore = await processCpuMs(server.pid);
  const result = await autocannon({ url: `${server.baseUrl}${SCRAPE_PATH}`, headers: HEADERS, connections: 16, duration: seconds });
  const cpuMsPerRequest = ((await processCpuMs(server.pid)) - cpuBefore) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuMsPerRequest };
}

/** A bare HTTP server answering the scrape's JSON, for the baselines. */
async function writeBareServer(dir: string, body: string): Promise<string> {
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
  const started = await startAndTime({ ...MOCK, env: { NODE_COMPILE_CACHE: join(dir, 'compile-cache') } });
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

const MOCK: Command = { args: async () => ['mock/main.ts'], listening: /listening on (http:\/\/\S+\/v1)/ };
const PRISM: Command = {
  args: async () => [PRISM_CLI, 'mock', 'generated/openapi.json', '--host', '127.0.0.1', '--port', String(await freePort())],
  listening: /Prism is listening on (http:\/\/\S+)/,
};

const format = (value: number, digits = 0) => value.toFixed(digits).padStart(12);
const row = (label: string, ...values: string[]) => console.log(`${label.padEnd(40)}${values.join('')}`);

const dir = await mkdtemp(join(tmpdir(), 'bench-mock-'));
try {
  const probe = await startAndTime(MOCK);
  const scrapeBody = await (await fetch(`${probe.baseUrl}${SCRAPE_PATH}`, { headers: HEADERS })).text();
  await probe.stop();
  const BARE: Command = { args: async () => [await writeBareServer(dir, scrapeBody)], listening: /listening on (http:\/\/\S+\/v1)/ };

  // The three servers run side by side; slices of load take turns, so a slow moment of the
  // machine (it may be shared) hits all three alike.
  const names = ['mock', 'bare', 'prism'] as const;
  const servers = { mock: await startAndTime(MOCK), bare: await startAndTime(BARE), prism: await startAndTime(PRISM) };
  for (const name of names) await load(servers[name], WARM_UP_SECONDS); // Prism's validators compile on first use, V8 optimises
  const rounds: Record<(typeof names)[number], Load>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const measured: Partial<Record<(typeof names)[number], Load>> = {};
    for (const name of names) measured[name] = await load(servers[name], LOAD_SECONDS);
    rounds.push(measured as Record<(typeof names)[number], Load>);
  }
  for (const name of names) await servers[name].stop();

  const firstStartMs = await firstStart(dir);
  const mockCold = await coldStart(MOCK, COLD_STARTS);
  const bareCold = await coldStart(BARE, COLD_STARTS);
  const prismCold = await coldStart(PRISM, 3);
  const suiteMs = await suiteWallTime();

  const figure = (pick: (load: Load) => number, name: 'mock' | 'bare' | 'prism') => median(rounds.map((round) => pick(round[name])));
  const overBare = rounds.map((round) => round.mock.rps / round.bare.rps);
  const overPrism = rounds.map((round) => round.mock.rps / round.prism.rps);
  // The same comparisons in server CPU per request: the ratio a machine with a core to spare would show.
  const cpuOverBare = rounds.map((round) => round.bare.cpuMsPerRequest / round.mock.cpuMsPerRequest);
  const cpuOverPrism = rounds.map((round) => round.prism.cpuMsPerRequest / round.mock.cpuMsPerRequest);
  console.log(`mock benchmark: ${ROUNDS} rounds of ${LOAD_SECONDS} s of load per server, taking turns (16 connections, after ${WARM_UP_SECONDS} s of warm-up each), medians; Node ${process.version}`);
  row('', ...['mock', 'bare node', 'prism mock'].map((name) => name.padStart(12)));
  row('cold start to first 200, median (ms)', format(median(mockCold)), format(median(bareCold)), format(median(prismCold)));
  row('first start, empty caches (ms)', format(firstStartMs));
  row('valid scrape, requests/second', ...(['mock', 'bare', 'prism'] as const).map((name) => format(figure((load) => load.rps, name))));
  row('latency p50 (ms)', ...(['mock', 'bare', 'prism'] as const).map((name) => format(figure((load) => load.p50, name), 1)));
  row('latency p99 (ms)', ...(['mock', 'bare', 'prism'] as const).map((name) => format(figure((load) => load.p99, name), 1)));
  row('server CPU per request (ms)', ...(['mock', 'bare', 'prism'] as const).map((name) => format(figure((load) => load.cpuMsPerRequest, name), 3)));
  row('non-2xx answers under load', ...(['mock', 'bare', 'prism'] as const).map((name) => format(rounds.reduce((sum, round) => sum + round[name].non2xx, 0))));
  row('contract suite against the mock (ms)', format(suiteMs));
  for (const [index, round] of rounds.entries()) {
    console.log(`  round ${index + 1}: mock ${round.mock.rps.toFixed(0)}, bare ${round.bare.rps.toFixed(0)}, prism mock ${round.prism.rps.toFixed(0)} requests/s: mock ÷ bare ${overBare[index]!.toFixed(2)}, mock ÷ prism mock ${overPrism[index]!.toFixed(2)}`);
  }
  console.log(`server CPU per request, as a ratio (baseline ÷ mock): bare ÷ mock ${medianAndRange(cpuOverBare)}, prism mock ÷ mock ${medianAndRange(cpuOverPrism)}`);
  console.log(goalReport([
    roundsGoal('valid scrape, mock ÷ bare Node (same round)', overBare, '≥', 0.3),
    // Issue 14 asks for twice Prism's CLI in every round, not on the median: the lowest round decides.
    { figure: 'valid scrape, mock ÷ prism mock (every round)', value: medianAndRange(overPrism), goal: '≥ 2', met: Math.min(...overPrism) >= 2 },
    roundsGoal('mock cold start to first 200 (ms)', mockCold, '<', 1000, 0),
    { figure: 'contract suite against the mock (ms)', value: suiteMs.toFixed(0), goal: '< 10000', met: suiteMs < 10_000 },
  ]));
} finally {
  await rm(dir, { recursive: true, force: true });
}
