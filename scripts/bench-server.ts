/**
 * `npm run bench:server`: throughput and latency of a cached `socialnet/events` call with a sandbox
 * key on the full stack (request and response validation, auth, rate limit, cache, credits, ledger
 * write, one log line), beside a bare Express handler answering the same JSON, in the same run.
 */
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from './paths.ts';

const EVENTS_PATH = '/socialnet/events?url=https%3A%2F%2Fsocial.example%2Fgroups%2Fberlin-hikers';
const LOAD_SECONDS = 5;
const CONNECTIONS = 16;
const run = promisify(execFile);

async function startProcess(args: string[], env: Record<string, string>): Promise<{ baseUrl: string; stop(): Promise<void> }> {
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
    async stop() {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: LOAD_SECONDS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

const folder = await mkdtemp(join(tmpdir(), 'bench-server-'));
try {
  const env = { DATABASE_URL: join(folder, 'bench.sqlite'), RATE_LIMIT: '100000000/60', NODE_ENV: 'production', LOG_LEVEL: 'info' };
  const created = await run(process.execPath, ['server/cli/keys.ts', 'create', '--credits', '100000000', '--sandbox'], { cwd: projectRoot, env: { ...process.env, ...env } });
  const apiKey = created.stdout.trim().split('\n').at(-1)!;
  const headers = { 'x-api-key': apiKey };

  const server = await startProcess(['server/main.ts'], env);
  const miss = await fetch(`${server.baseUrl}${EVENTS_PATH}`, { headers });
  const body = await miss.text();
  const hit = await fetch(`${server.baseUrl}${EVENTS_PATH}`, { headers });
  await hit.arrayBuffer();
  if (miss.status !== 200 || hit.headers.get('x-cache') !== 'HIT') throw new Error(`warm-up failed: ${miss.status}, X-Cache ${hit.headers.get('x-cache')}`);
  const full = await load(`${server.baseUrl}${EVENTS_PATH}`, headers);
  await server.stop();

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
  const baseline = await load(`${bare.baseUrl}${EVENTS_PATH}`, headers);
  await bare.stop();

  const format = (value: number, digits = 0) => value.toFixed(digits).padStart(12);
  console.log(`server benchmark: cached socialnet/events, sandbox key, ${LOAD_SECONDS} s with ${CONNECTIONS} connections, Node ${process.version}`);
  console.log(`${''.padEnd(28)}${'full stack'.padStart(12)}${'bare express'.padStart(12)}${'ratio'.padStart(12)}`);
  console.log(`${'requests/second'.padEnd(28)}${format(full.rps)}${format(baseline.rps)}${format(full.rps / baseline.rps, 2)}`);
  console.log(`${'latency p50 (ms)'.padEnd(28)}${format(full.p50, 1)}${format(baseline.p50, 1)}`);
  console.log(`${'latency p99 (ms)'.padEnd(28)}${format(full.p99, 1)}${format(baseline.p99, 1)}`);
  console.log(`${'non-2xx answers'.padEnd(28)}${format(full.non2xx)}${format(baseline.non2xx)}`);
  console.log(`goal: the full stack keeps at least half of the bare handler's throughput (${full.rps / baseline.rps >= 0.5 ? 'met' : 'NOT met'})`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
