/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type DestinationStream, type Logger } from 'pino';
import { type LogLines, logLines } from '../lib/log-lines.ts';

/**
 * Standard output written once per turn of the event loop: a server under load logs several requests
 * per turn, and each write to a pipe or a file is a system call (a fifth of a charged call's CPU when
 * made per line). The writes are asynchronous (pino's SonicBoom): a reader that stops draining the pipe
 * makes the lines wait in memory, never the requests. Every line is written, in order; what is pending
 * when the process exits (`process.exit`, an uncaught error) is written then, synchronously
 * (lib/log-lines.ts, as the mock's request log).
 */
function stdoutOncePerTurn(): LogLines {
  const stdout = pino.destination({ dest: 1, sync: false });
  const lines = logLines((text) => stdout.write(text));
  process.once('exit', () => {
    lines.flush();
    stdout.flushSync();
  });
  return lines;
}

let stdoutLines: LogLines | undefined;
/** The process's one writer to stdout: the logger's lines and `printLine`'s share it, so they reach stdout in the order they were made. */
function processStdout(): LogLines {
  stdoutLines ??= stdoutOncePerTurn();
  return stdoutLines;
}

/**
 * A plain line for the operator on stdout (`… listening on …`, `stopped`), written in its place among
 * the log lines (regression: written directly while a log line of the same turn waited, it came first).
 */
export function printLine(text: string): void {
  processStdout().log(text);
}

/** A JSON-lines logger to stdout, or to `destination` (tests). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'wsdq' }, redact: { paths: ['req.headers["x-api-key"]', '*.secret'], remove: true } };
  // pino ends each line with a newline; logLines adds them back when it joins the turn's lines.
  return pino(options, destination ?? { write: (line: string) => processStdout().log(line.endsWith('\n') ? line.slice(0, -1) : line) });
}
