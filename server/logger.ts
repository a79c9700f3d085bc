/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Standard output written once per turn of the event loop: a server under load logs several requests
 * per turn, and each write to a pipe or a file is a system call (a fifth of a charged call's CPU when
 * made per line). The writes are asynchronous (pino's SonicBoom): a reader that stops draining the pipe
 * makes the lines wait in memory, never the requests. Every line is written, in order; what is pending
 * when the process exits (`process.exit`, an uncaught error) is written then, synchronously.
 */
function stdoutOncePerTurn(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false });
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    stdout.write(text);
  };
  process.once('exit', () => {
    flush();
    stdout.flushSync();
  });
  return {
    write(line: string) {
      if (pending === '') setImmediate(flush);
      pending += line;
    },
  };
}

/** A JSON-lines logger to stdout, or to `destination` (tests). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'wsdq' }, redact: { paths: ['req.headers["x-api-key"]', '*.secret'], remove: true } };
  return pino(options, destination ?? stdoutOncePerTurn());
}
