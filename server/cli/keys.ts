/**
 * Key commands, on the same database as the server (DATABASE_URL): `npm run key:create`,
 * `key:list`, `key:revoke`, `key:credit`. Each prints its usage, options and an example on
 * `--help` (exit 0) and after a usage error (exit 2). `key:create` prints the new key alone on its
 * last line; it is shown once and stored only hashed. `runKeyCommand` is the whole command, so tests
 * run it in-process; run as a script, this file prints its answer and exits with its code.
 */
import { parseArgs } from 'node:util';
import { ConfigError, databaseUrl, parseRateLimit } from '../config.ts';
import { PLATFORM_SCOPES, type Scope } from '../store/api-keys.ts';
import { shownDatabaseUrl } from '../store/database-url.ts';
import { openStores, type Stores } from '../store/index.ts';
import { commandHelp, type CommandSpec } from './help.ts';

/** A mistake in the command line: the message, then the command's usage. */
class UsageError extends Error {}
/** A well-formed command that cannot be carried out (an unknown key): the message alone. */
class CommandError extends Error {}

type Values = Record<string, string | boolean | undefined>;
interface Command extends CommandSpec {
  /** Carries out the command; each line it prints goes to `print`. */
  run(stores: Stores, values: Values, positionals: string[], print: (line: string) => void): Promise<void>;
}

/** How a key command ended: its exit code and what it printed on each stream. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** An integer of at least `min` from `--flag`, which is required. */
function integerOption(values: Values, flag: string, min: number): number {
  const text = values[flag];
  const wanted = `an integer, ${min} or more`;
  if (typeof text !== 'string' || text === '') throw new UsageError(`--${flag} is required (${wanted})`);
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min) throw new UsageError(`--${flag} must be ${wanted}, got "${text}"`);
  return value;
}

function scopesOf(text: string | undefined): Scope[] {
  if (text === undefined) return [...PLATFORM_SCOPES];
  const scopes = text.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = scopes.filter((scope) => !PLATFORM_SCOPES.includes(scope as Scope));
  if (unknown.length > 0 || scopes.length === 0) throw new UsageError(`--scopes takes platforms from ${PLATFORM_SCOPES.join(', ')}; got "${text}"`);
  return scopes as Scope[];
}

async function keyArgument(stores: Stores, text: string | undefined) {
  const key = await stores.keys.find(text!.replace(/…$/, ''));
  if (!key) throw new CommandError(`no key ${text} (key:list shows the keys)`);
  return key;
}

const KEY_ARGUMENT = { name: 'KEY', help: 'the key\'s id (key_…) or its prefix (wsdq_live_… or wsdq_test_…, as key:list shows it)' };

const commands: Record<string, Command> = {
  create: {
    script: 'key:create',
    purpose: 'issues a key',
    summary: 'Creates an API key and prints it once, alone on the last line; it is stored only as a hash.',
    options: {
      credits: { type: 'string', value: 'N', help: 'credits the key starts with, an integer, 0 or more (required)', required: true },
      scopes: { type: 'string', value: 'LIST', help: `platforms the key may call, comma-separated, from ${PLATFORM_SCOPES.join(', ')} (default: all)` },
      'expires-in': { type: 'string', value: 'SECONDS', help: 'the key expires this many seconds from now (default: never)' },
      sandbox: { type: 'boolean', help: 'a sandbox key: built-in data, no upstream fetched (default: a live key)' },
      name: { type: 'string', value: 'TEXT', help: 'a label key:list shows' },
      'rate-limit': { type: 'string', value: 'REQUESTS/SECONDS', help: 'the key\'s own rate limit, such as 120/60 (default: the server\'s RATE_LIMIT)' },
    },
    examples: ['npm run key:create -- --credits 1000 --sandbox', 'npm run key:create -- --credits 500 --scopes web,finance --expires-in 86400 --name "frontend team"'],
    async run(stores, values, _positionals, print) {
      const credits = integerOption(values, 'credits', 0);
      const now = new Date();
      const expiresAt = values['expires-in'] === undefined ? null : new Date(now.getTime() + integerOption(values, 'expires-in', 1) * 1000).toISOString();
      let rateLimit = null;
      try {
        rateLimit = typeof values['rate-limit'] === 'string' ? parseRateLimit(values['rate-limit'], '--rate-limit') : null;
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const { key, secret } = await stores.keys.create({
        credits,
        scopes: scopesOf(values.scopes as string | undefined),
        sandbox: values.sandbox === true,
        expiresAt,
        name: (values.name as string | undefined) ?? null,
        rateLimit,
      }, now);
      print(`Created ${key.sandbox ? 'sandbox' : 'live'} key ${key.id} with ${key.balance} credits, scopes ${key.scopes.join(',')}${key.expiresAt ? `, expiring ${key.expiresAt}` : ''}.`);
      print(`Webhook signing secret (Standard Webhooks): ${key.webhookSecret}`);
      print('The key is shown once and stored only as a hash. Key:');
      print(secret);
    },
  },
  list: {
    script: 'key:list',
    purpose: 'lists the keys',
    summary: 'Lists every key: id, prefix, mode, balance, scopes, state and name (never the key itself).',
    options: {},
    examples: ['npm run key:list'],
    async run(stores, _values, _positionals, print) {
      const rows = (await stores.keys.list()).map((key) => [
        key.id, `${key.keyPrefix}…`, key.sandbox ? 'sandbox' : 'live', String(key.balance), key.scopes.join(','),
        key.revokedAt ? `revoked ${key.revokedAt}` : key.expiresAt ? `expires ${key.expiresAt}` : 'active', key.name ?? '',
      ]);
      const header = ['id', 'prefix', 'mode', 'balance', 'scopes', 'state', 'name'];
      const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
      for (const row of [header, ...rows]) print(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
    },
  },
  revoke: {
    script: 'key:revoke',
    purpose: 'revokes a key',
    summary: 'Revokes a key: from now on it answers 401 api_key_revoked. Its ledger is kept.',
    argument: KEY_ARGUMENT,
    options: {},
    examples: ['npm run key:revoke -- key_01JD3F4Q8ZP6M2W5X7Y9A0B1C2', 'npm run key:revoke -- wsdq_live_Ab3D'],
    async run(stores, _values, [text], print) {
      const key = await keyArgument(stores, text);
      print((await stores.keys.revoke(key.id)) ? `Revoked ${key.id}.` : `${key.id} was already revoked.`);
    },
  },
  credit: {
    script: 'key:credit',
    purpose: 'adds credits to a key',
    summary: 'Adds credits to a key (a top-up, written to its ledger) and prints the new balance.',
    argument: KEY_ARGUMENT,
    options: { credits: { type: 'string', value: 'N', help: 'credits to add, an integer, 1 or more (required)', required: true } },
    examples: ['npm run key:credit -- wsdq_live_Ab3D --credits 500'],
    async run(stores, values, [text], print) {
      const amount = integerOption(values, 'credits', 1);
      const key = await keyArgument(stores, text);
      print(`Added ${amount} credits to ${key.id}; balance ${await stores.ledger.topUp(key.id, amount)}.`);
    },
  },
};

const OVERVIEW = [
  'Key commands, on the server\'s database (DATABASE_URL, default ./data/wsdq.sqlite):',
  ...Object.values(commands).map((command) => `  npm run ${command.script.padEnd(11)} ${command.purpose}`),
  '',
  'Each command prints its options and an example with --help, such as: npm run key:create -- --help',
].join('\n');

/** Parses the command line of `command`: its options, --help, and its one positional (the key) when it takes one. */
function parse(command: Command, args: string[]): { values: Values; positionals: string[]; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: command.argument !== undefined, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { help, ...values } = parsed.values;
  if (help) return { values, positionals: parsed.positionals, help: true };
  if (command.argument && parsed.positionals.length !== 1) {
    throw new UsageError(parsed.positionals.length === 0 ? `${command.argument.name} is required: ${command.argument.help}` : `one ${command.argument.name} at a time, got ${parsed.positionals.length}`);
  }
  return { values, positionals: parsed.positionals, help: false };
}

/**
 * Runs the key command `argv` names (`['create', '--credits', '5']`) on the database of `env`'s
 * DATABASE_URL, and answers what it printed and its exit code. An unexpected error is thrown.
 */
export async function runKeyCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const exitCode = await keyCommand(argv, env, (line) => (stdout += `${line}\n`), (line) => (stderr += `${line}\n`));
  return { exitCode, stdout, stderr };
}

async function keyCommand(argv: readonly string[], env: NodeJS.ProcessEnv, print: (line: string) => void, printError: (line: string) => void): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    print(OVERVIEW);
    return 0;
  }
  if (name === undefined) {
    printError(`error: name a command\n\n${OVERVIEW}`);
    return 2;
  }
  const command = commands[name];
  if (!command) {
    printError(`error: unknown command "${name}"\n\n${OVERVIEW}`);
    return 2;
  }
  const help = commandHelp(command);
  let stores: Stores | undefined;
  try {
    const parsed = parse(command, args);
    if (parsed.help) {
      print(help);
      return 0;
    }
    const location = databaseUrl(env);
    stores = await openStores(location).catch((error: Error) => {
      throw new ConfigError(`DATABASE_URL: cannot open the database ${shownDatabaseUrl(location)}: ${error.message}`);
    });
    await command.run(stores, parsed.values, parsed.positionals, print);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) printError(`error: ${error.message}\n\n${help}`);
    else if (error instanceof CommandError) printError(`error: ${error.message}`);
    else if (error instanceof ConfigError) printError(`Configuration error: ${error.message}`);
    else throw error;
    return 2;
  } finally {
    await stores?.database.close();
  }
}

if (import.meta.main) {
  const { exitCode, stdout, stderr } = await runKeyCommand(process.argv.slice(2), process.env);
  process.stdout.write(stdout);
  process.stderr.write(stderr);
  process.exitCode = exitCode;
}
