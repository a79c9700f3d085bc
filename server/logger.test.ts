import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const loggerModule = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs `body` in a fresh Node process with `logger` made by createLogger('info'); its stdout. */
async function stdoutOf(body: string): Promise<string> {
  const script = `import { createLogger, printLine } from ${JSON.stringify(loggerModule)}; const logger = createLogger('info'); ${body}`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
  return stdout;
}

describe('the logger on stdout, written once per turn', () => {
  it('writes every line, in order, when the process exits at once after logging them', async () => {
    const stdout = await stdoutOf(`for (let index = 0; index < 5000; index++) logger.info({ index }, 'line'); process.exit(0);`);
    const indexes = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { index: number }).index);
    expect(indexes).toEqual(Array.from({ length: 5000 }, (_, index) => index));
  });

  it('writes a line logged just before an uncaught error ends the process', async () => {
    const failure = await stdoutOf(`logger.fatal('the last words'); throw new Error('boom');`).catch((error: { stdout: string }) => error.stdout);
    expect(JSON.parse(failure.trim())).toMatchObject({ level: 60, msg: 'the last words', service: 'wsdq' });
  });

  it('writes a plain line in its place among the log lines (regression: `listening on` came before the start-up line logged just before it)', async () => {
    const stdout = await stdoutOf(`logger.info('live keys: none'); printLine('listening on'); logger.info('after'); setTimeout(() => printLine('stopped'), 5);`);
    const lines = stdout.trim().split('\n');
    expect(lines.map((line) => (line.startsWith('{') ? (JSON.parse(line) as { msg: string }).msg : line))).toEqual(['live keys: none', 'listening on', 'after', 'stopped']);
  });
});

describe('the logger on stdout, when the reader stops draining it', () => {
  it('keeps the event loop turning (lines wait in memory), then writes every line in order once the reader drains again (regression: the synchronous writer stalled it 1.6-3.9 s)', async () => {
    // The child logs 40 lines of 1 KB every 5 ms for 1.5 s, timing its event loop, and tells its longest stall on stderr.
    const script = `import { createLogger } from ${JSON.stringify(loggerModule)};
      const logger = createLogger('info');
      const padding = 'x'.repeat(1000);
      let index = 0; let longestStallMs = 0; let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now(); longestStallMs = Math.max(longestStallMs, now - last - 5); last = now;
        for (let line = 0; line < 40; line++) logger.info({ index: index++, padding });
      }, 5);
      setTimeout(() => { clearInterval(timer); process.stderr.write(JSON.stringify({ longestStallMs, lines: index })); }, 1500);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause(); // the pipe fills (64 KB) within the first turns and stays full for 2 s
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stdout.resume();
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(0);
    const { longestStallMs, lines } = JSON.parse(stderr) as { longestStallMs: number; lines: number };
    expect(longestStallMs).toBeLessThan(500);
    const indexes = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { index: number }).index);
    expect(indexes).toEqual(Array.from({ length: lines }, (_, index) => index));
  });
});
