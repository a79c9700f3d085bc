import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const loggerModule = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs `body` in a fresh Node process with `logger` made by createLogger('info'); its stdout. */
async function stdoutOf(body: string): Promise<string> {
  const script = `import { createLogger } from ${JSON.stringify(loggerModule)}; const logger = createLogger('info'); ${body}`;
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
});
