/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Standard output written once per turn of the event loop: a server under load logs several requests
 * per turn, and each write to a pipe or a file is a system call (a fifth of a charged call's CPU when
 * made per line). Every line is written, in order, before the next turn, and what is pending when the
 * process exits (`process.exit`, an uncaught error) is written then; the mock's log does the same.
 */
function stdoutOncePerTurn(): DestinationStream {
  // pino's synchronous writer: a whole write even to a full pipe (process.stdout would leave the rest queued, lost at exit).
  const stdout = pino.destination({ dest: 1, sync: true });
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    stdout.write(text);
  };
  process.once('exit', flush);
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
