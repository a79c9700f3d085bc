/**
 * `npm run bench:server`: throughput and latency of a cached `socialnet/events` call with a sandbox
 * key on the full stack (request and response validation, auth, rate limit, cache, credits, ledger
 * write, one log line) on SQLite, on PostgreSQL (a private cluster, as the tests start it), and on
 * two instances sharing that PostgreSQL database, beside a bare Express handler answering the same
 * JSON, in the same run.
 */
import { goalReport } from './bench-goals.ts';
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

/**
 * Starts `instances` server processes on the database of `env` with a new key, warms the cache,
 * then loads them all at once (CONNECTIONS each) and answers their summed throughput (latencies:
 * the worst instance's), and the body of the call.
 */
async function measureServers(env: Record<string, string>, instances: number, { uncached = false } = {}): Promise<{ figures: Figures; body: string }> {
  const created = await run(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '100000000', '--sandbox'], { cwd: projectRoot, env: { ...process.env, ...env } });
  const headers = { 'x-api-key': created.stdout.trim().split('\n').at(-1)! };
  const servers = await Promise.all(Array.from({ length: instances }, () => startProcess(['server/main.ts'], env)));
  try {
    const miss = await fetch(`${servers[0]!.baseUrl}${EVENTS_PATH}`, { headers });
    const body = await miss.text();
    for (const server of servers) {
      const hit = await fetch(`${server.baseUrl}${EVENTS_PATH}`, { headers });
      await hit.arrayBuffer();
      if (miss.status !== 200 || hit.headers.get('x-cache') !== 'HIT') throw new Error(`warm-up failed: ${miss.status}, X-Cache ${hit.headers.get('x-cache')}`);
    }
    // Uncached: `Cache-Control: no-cache` makes every call go to the sandbox provider, charged, with its ledger row.
    const loadHeaders = uncached ? { ...headers, 'cache-control': 'no-cache' } : headers;
    const each = await Promise.all(servers.map((server) => load(server, `${server.baseUrl}${EVENTS_PATH}`, loadHeaders)));
    const figures = {
      rps: each.reduce((sum, figure) => sum + figure.rps, 0),
      p50: Math.max(...each.map((figure) => figure.p50)),
      p99: Math.max(...each.map((figure) => figure.p99)),
      non2xx: each.reduce((sum, figure) => sum + figure.non2xx, 0),
      cpuMsPerRequest: each.reduce((sum, figure) => sum + figure.cpuMsPerRequest, 0) / each.length,
    };
    return { figures, body };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const folder = await mkdtemp(join(tmpdir(), 'bench-server-'));
const postgres = await startPostgresCluster();
try {
  const common = { RATE_LIMIT: '100000000/60', NODE_ENV: 'production', LOG_LEVEL: 'info' };
  const { figures: sqlite, body } = await measureServers({ ...common, DATABASE_URL: join(folder, 'bench.sqlite') }, 1);
  const { figures: uncachedSqlite } = await measureServers({ ...common, DATABASE_URL: join(folder, 'bench-uncached.sqlite') }, 1, { uncached: true });
  const onPostgres = { ...common, DATABASE_URL: await postgres.createDatabase('bench') };
  const { figures: single } = await measureServers(onPostgres, 1);
  const { figures: pair } = await measureServers(onPostgres, 2);

  const bareFile = join(folder, 'bare-express.mjs');
  await writeFile(bareFile, `
import express from ${JSON.stringify(join(projectRoot, 'node_modules', 'express', 'index.js'))};
const body = ${JSON.stringify(body)};
const app = express();
app.get('/v1/socialnet/events', (req, res) => res.type('application/json').send(body));
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + '/v1'));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`);
  const bare = await startProcess([bareFile], {});
  const baseline = await load(bare, `${bare.baseUrl}${EVENTS_PATH}`, {});
  await bare.stop();

  const columns: [string, Figures][] = [['SQLite', sqlite], ['uncached', uncachedSqlite], ['PostgreSQL', single], ['2 × PG', pair], ['bare express', baseline]];
  const format = (value: number, digits = 0) => value.toFixed(digits).padStart(14);
  const row = (label: string, value: (figures: Figures) => string) => console.log(`${label.padEnd(24)}${columns.map(([, figures]) => value(figures)).join('')}`);
  console.log(`server benchmark: cached socialnet/events, sandbox key, ${LOAD_SECONDS} s with ${CONNECTIONS} connections per instance, Node ${process.version}`);
  console.log(`${''.padEnd(24)}${columns.map(([name]) => name.padStart(14)).join('')}`);
  row('requests/second', (figures) => format(figures.rps));
  row('latency p50 (ms)', (figures) => format(figures.p50, 1));
  row('latency p99 (ms)', (figures) => format(figures.p99, 1));
  row('non-2xx answers', (figures) => format(figures.non2xx));
  row('server CPU/request (ms)', (figures) => format(figures.cpuMsPerRequest, 3));
  console.log(`two instances on PostgreSQL: ${(pair.rps / single.rps).toFixed(2)} × one instance's throughput (this machine has ${availableParallelism()} cores, shared by both and by PostgreSQL)`);
  console.log(`server CPU per request, bare ÷ full stack (the ratio a machine with a core to spare for the load generator would show): cached ${(baseline.cpuMsPerRequest / sqlite.cpuMsPerRequest).toFixed(2)}, uncached ${(baseline.cpuMsPerRequest / uncachedSqlite.cpuMsPerRequest).toFixed(2)}`);
  console.log(`"uncached": the same call on SQLite with Cache-Control: no-cache, so each one reaches the sandbox provider and is charged with a ledger row`);
  console.log(goalReport([
    { figure: 'cached call, full stack on SQLite ÷ bare Express', value: (sqlite.rps / baseline.rps).toFixed(2), goal: '≥ 0.5', met: sqlite.rps / baseline.rps >= 0.5 },
    { figure: 'uncached sandbox call (charged) ÷ bare Express', value: (uncachedSqlite.rps / baseline.rps).toFixed(2), goal: '≥ 0.35', met: uncachedSqlite.rps / baseline.rps >= 0.35 },
  ]));
} finally {
  await postgres.stop();
  await rm(folder, { recursive: true, force: true });
}
