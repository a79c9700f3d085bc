/** Structured logs (pino), one JSON line each; API keys and bodies are never logged. */
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'wsdq' }, redact: { paths: ['req.headers["x-api-key"]', '*.secret'], remove: true } });
}
