/** A bad configuration value: start-up stops with its message, which names the variable. Its own module, so adapters' config readers and config.ts import it without a cycle. */
export class ConfigError extends Error {}

/** Stops start-up for a bad configuration: the message on stderr, exit code 2. */
export function refuseConfiguration(message: string): never {
  console.error(`Configuration error: ${message}`);
  process.exit(2);
}
