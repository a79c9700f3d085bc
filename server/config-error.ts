/** A bad configuration value: start-up stops with its message, which names the variable. Its own module, so adapters' config readers and config.ts import it without a cycle. */
export class ConfigError extends Error {}
