/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type DestinationStream, type Logger } from 'pino';

/** A JSON-lines logger to stdout, or to `destination` (tests). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'wsdq' }, redact: { paths: ['req.headers["x-api-key"]', '*.secret'], remove: true } };
  return destination ? pino(options, destination) : pino(options);
}
