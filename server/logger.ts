/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type DestinationStream, type Logger } from 'pino';
import { logLines } from '../lib/log-lines.ts';

/**
 * Standard output written once per turn of the event loop: a server under load logs several requests
 * per turn, and each write to a pipe or a file is a system call (a fifth of a charged call's CPU when
 * made per line). The writes are asynchronous (pino's SonicBoom): a reader that stops draining the pipe
 * makes the lines wait in memory, never the requests. Every line is written, in order; what is pending
 * when the process exits (`process.exit`, an uncaught error) is written then, synchronously
 * (lib/log-lines.ts, as the mock's request log).
 */
function stdoutOncePerTurn(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false });
  const lines = logLines((text) => stdout.write(text));
  process.once('exit', () => {
    lines.flush();
    stdout.flushSync();
  });
  // pino ends each line with a newline; logLines adds them back when it joins the turn's lines.
  return { write: (line: string) => lines.log(line.endsWith('\n') ? line.slice(0, -1) : line) };
}

/** A JSON-lines logger to stdout, or to `destination` (tests). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'wsdq' }, redact: { paths: ['req.headers["x-api-key"]', '*.secret'], remove: true } };
  return pino(options, destination ?? stdoutOncePerTurn());
}
