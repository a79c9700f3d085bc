/**
 * `npm run bench:server`: throughput, latency and server CPU per request of a cached `socialnet/events` call with a sandbox
 * key on the full stack (request and response validation, auth, rate limit, cache, credits, ledger
 * write, one log line) on SQLite, on PostgreSQL (a private cluster, as the tests start it), and on
 * two instances sharing that PostgreSQL database, beside a bare Express handler answering the same
 * JSON, in the same run. SQLite (cached and uncached) and bare Express take turns for three rounds,
 * and each goal is the median of the rounds' ratios with their range.
 */
import { goalReport, median, medianAndRange, roundsGoal } from './bench-goals.ts';
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startPostgresCluster } from '../server/test-support/postgres-cluster.ts';
import { projectRoot } from './paths.ts';
import { processCpuMs } from './process-cpu.ts';

const EVENTS_PATH = '/socialnet/events?url=https%3A%2F%2Fsocial.example%2Fgroups%2Fberlin-hikers';
const LOAD_SECONDS = 5;
const ROUNDS = 3;
const CONNECTIONS = 16;
const run = promisify(execFile);

interface Started { baseUrl: string; pid: number; stop(): Promise<void> }

async function startProcess(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+\/v1)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  return {
    baseUrl,
    pid: child.pid!,
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `LOAD_SECONDS` of load on `server`; besides the throughput, the server's own CPU time per request. */
async function load(server: Started, url: string, headers: Record<string, string>) {
  const cpuBefore = await processCpuMs(server.pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: LOAD_SECONDS });
  const cpuMsPerRequest = ((await processCpuMs(server.pid)) - cpuBefore) / Math.max(1, result.requests.total);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuMsPerRequest };
}

type Figures = Awaited<ReturnType<typeof load>>;

interface Warm { servers: Started[]; headers: Record<string, string>; body: string }

/** Starts `instances` server processes on the database of `env` with a new key, and warms the cache; answers them, the key's headers and the body of the call. */
async function startServers(env: Record<string, string>, instances: number): Promise<Warm> {
  const created = await run(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '100000000', '--sandbox'], { cwd: projectRoot, env: { ...process.env, ...env } });
  const headers = { 'x-api-key': created.stdout.trim().split('\n').at(-1)! };
  const servers = await Promise.all(Array.from({ length: instances }, () => startProcess(['server/main.ts'], env)));
  const miss = await fetch(`${servers[0]!.baseUrl}${EVENTS_PATH}`, { headers });
  const body = await miss.text();
  for (const server of servers) {
    const hit = await fetch(`${server.baseUrl}${EVENTS_PATH}`, { headers });
    await hit.arrayBuffer();
    if (miss.status !== 200 || hit.headers.get('x-cache') !== 'HIT') throw new Error(`warm-up failed: ${miss.status}, X-Cache ${hit.headers.get('x-cache')}`);
  }
  return { servers, headers, body };
}

/** Loads every server of `warm` at once (CONNECTIONS each): their summed throughput, the worst instance's latencies, the mean CPU per request. */
async function loadServers({ servers, headers }: Warm, { uncached = false } = {}): Promise<Figures> {
  // Uncached: `Cache-Control: no-cache` makes every call go to the sandbox provider, charged, with its ledger row.
  const loadHeaders = uncached ? { ...headers, 'cache-control': 'no-cache' } : headers;
  const each = await Promise.all(servers.map((server) => load(server, `${server.baseUrl}${EVENTS_PATH}`, loadHeaders)));
  return {
    rps: each.reduce((sum, figure) => sum + figure.rps, 0),
    p50: Math.max(...each.map((figure) => figure.p50)),
    p99: Math.max(...each.map((figure) => figure.p99)),
    non2xx: each.reduce((sum, figure) => sum + figure.non2xx, 0),
    cpuMsPerRequest: each.reduce((sum, figure) => sum + figure.cpuMsPerRequest, 0) / each.length,
  };
}

async function stopAll(...started: Started[]): Promise<void> {
  await Promise.all(started.map((server) => server.stop()));
}

/** The median of each figure over the rounds (non-2xx answers: their sum). */
function medianFigures(rounds: readonly Figures[]): Figures {
  const of = (figure: (figures: Figures) => number) => median(rounds.map(figure));
  return { rps: of((f) => f.rps), p50: of((f) => f.p50), p99: of((f) => f.p99), non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0), cpuMsPerRequest: of((f) => f.cpuMsPerRequest) };
}

const folder = await mkdtemp(join(tmpdir(), 'bench-server-'));
const postgres = await startPostgresCluster();
try {
  const common = { RATE_LIMIT: '100000000/60', NODE_ENV: 'production', LOG_LEVEL: 'info' };
  // SQLite cached, SQLite uncached and bare Express take turns, ROUNDS times, so each ratio compares loads of the same minute.
  const cachedWarm = await startServers({ ...common, DATABASE_URL: join(folder, 'bench.sqlite') }, 1);
  const uncachedWarm = await startServers({ ...common, DATABASE_URL: join(folder, 'bench-uncached.sqlite') }, 1);
  const bareFile = join(folder, 'bare-express.mjs');
  await writeFile(bareFile, `
import express from ${JSON.stringify(join(projectRoot, 'node_modules', 'express', 'index.js'))};
const body = ${JSON.stringify(cachedWarm.body)};
const app = express();
app.get('/v1/socialnet/events', (req, res) => res.type('application/json').send(body));
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`);
  const bare = await startProcess([bareFile], {});
  const rounds: { cached: Figures; uncached: Figures; bare: Figures }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({
        cached: await loadServers(cachedWarm),
        uncached: await loadServers(uncachedWarm, { uncached: true }),
        bare: await load(bare, `${bare.baseUrl}${EVENTS_PATH}`, {}),
      });
    }
  } finally {
    await stopAll(...cachedWarm.servers, ...uncachedWarm.servers, bare);
  }

  const onPostgres = { ...common, DATABASE_URL: await postgres.createDatabase('bench') };
  const singleWarm = await startServers(onPostgres, 1);
  const single = await loadServers(singleWarm).finally(() => stopAll(...singleWarm.servers));
  const pairWarm = await startServers(onPostgres, 2);
  const pair = await loadServers(pairWarm).finally(() => stopAll(...pairWarm.servers));

  const sqlite = medianFigures(rounds.map((round) => round.cached));
  const uncachedSqlite = medianFigures(rounds.map((round) => round.uncached));
  const baseline = medianFigures(rounds.map((round) => round.bare));
  const columns: [string, Figures][] = [['SQLite', sqlite], ['uncached', uncachedSqlite], ['PostgreSQL', single], ['2 × PG', pair], ['bare express', baseline]];
  const format = (value: number, digits = 0) => value.toFixed(digits).padStart(14);
  const row = (label: string, value: (figures: Figures) => string) => console.log(`${label.padEnd(24)}${columns.map(([, figures]) => value(figures)).join('')}`);
  console.log(`server benchmark: cached socialnet/events, sandbox key, ${LOAD_SECONDS} s with ${CONNECTIONS} connections per instance; SQLite, uncached and bare Express in ${ROUNDS} rounds taking turns (medians), PostgreSQL once; Node ${process.version}`);
  console.log(`${''.padEnd(24)}${columns.map(([name]) => name.padStart(14)).join('')}`);
  row('requests/second', (figures) => format(figures.rps));
  row('latency p50 (ms)', (figures) => format(figures.p50, 1));
  row('latency p99 (ms)', (figures) => format(figures.p99, 1));
  row('non-2xx answers', (figures) => format(figures.non2xx));
  row('server CPU/request (ms)', (figures) => format(figures.cpuMsPerRequest, 3));
  rounds.forEach((round, index) => console.log(`  round ${index + 1}: cached ${round.cached.rps.toFixed(0)}, uncached ${round.uncached.rps.toFixed(0)}, bare ${round.bare.rps.toFixed(0)} requests/s: cached ÷ bare ${(round.cached.rps / round.bare.rps).toFixed(2)}, uncached ÷ bare ${(round.uncached.rps / round.bare.rps).toFixed(2)}`));
  console.log(`two instances on PostgreSQL: ${(pair.rps / single.rps).toFixed(2)} × one instance's throughput (this machine has ${availableParallelism()} cores, shared by both and by PostgreSQL)`);
  const cpuRatio = (pick: (round: (typeof rounds)[number]) => Figures) => medianAndRange(rounds.map((round) => round.bare.cpuMsPerRequest / pick(round).cpuMsPerRequest));
  console.log(`server CPU per request, bare ÷ full stack (the ratio a machine with a core to spare for the load generator would show): cached ${cpuRatio((round) => round.cached)}, uncached ${cpuRatio((round) => round.uncached)}`);
  console.log(`"uncached": the same call on SQLite with Cache-Control: no-cache, so each one reaches the sandbox provider and is charged with a ledger row`);
  const cachedRatios = rounds.map((round) => round.cached.rps / round.bare.rps);
  const uncachedRatios = rounds.map((round) => round.uncached.rps / round.bare.rps);
  console.log(goalReport([
    roundsGoal('cached call, full stack on SQLite ÷ bare Express', cachedRatios, '≥', 0.5),
    roundsGoal('uncached sandbox call (charged) ÷ bare Express', uncachedRatios, '≥', 0.35),
  ]));
} finally {
  await postgres.stop();
  await rm(folder, { recursive: true, force: true });
}
