/**
 * Key commands, on the same database as the server (DATABASE_URL):
 *   key:create --credits N [--scopes web,finance] [--expires-in SECONDS] [--sandbox] [--name TEXT] [--rate-limit 120/60]
 *   key:list | key:revoke <key id or prefix> | key:credit <key id or prefix> --credits N
 * `key:create` prints the new key alone on its last line; it is shown once and stored only hashed.
 */
import { parseArgs } from 'node:util';
import { parseRateLimit, readConfig } from '../config.ts';
import { PLATFORM_SCOPES, type Scope } from '../store/api-keys.ts';
import { openStores, type Stores } from '../store/index.ts';

class UsageError extends Error {}

function positiveInteger(text: string | undefined, flag: string, allowZero = true): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) throw new UsageError(`${flag} must be a whole number${allowZero ? '' : ' above 0'}, got "${text ?? ''}"`);
  return value;
}

function scopesOf(text: string | undefined): Scope[] {
  if (text === undefined) return [...PLATFORM_SCOPES];
  const scopes = text.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = scopes.filter((scope) => !PLATFORM_SCOPES.includes(scope as Scope));
  if (unknown.length > 0 || scopes.length === 0) throw new UsageError(`--scopes takes platforms from ${PLATFORM_SCOPES.join(', ')}; got "${text}"`);
  return scopes as Scope[];
}

function create(stores: Stores, args: string[]): void {
  const { values } = parseArgs({
    args,
    options: { credits: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, sandbox: { type: 'boolean' }, name: { type: 'string' }, 'rate-limit': { type: 'string' } },
  });
  const credits = positiveInteger(values.credits, '--credits');
  const now = new Date();
  const expiresAt = values['expires-in'] === undefined ? null : new Date(now.getTime() + positiveInteger(values['expires-in'], '--expires-in', false) * 1000).toISOString();
  const { key, secret } = stores.keys.create({
    credits,
    scopes: scopesOf(values.scopes),
    sandbox: values.sandbox ?? false,
    expiresAt,
    name: values.name ?? null,
    rateLimit: values['rate-limit'] ? parseRateLimit(values['rate-limit'], '--rate-limit') : null,
  }, now);
  console.log(`Created ${key.sandbox ? 'sandbox' : 'live'} key ${key.id} with ${key.balance} credits, scopes ${key.scopes.join(',')}${key.expiresAt ? `, expiring ${key.expiresAt}` : ''}.`);
  console.log(`Webhook signing secret (Standard Webhooks): ${key.webhookSecret}`);
  console.log('The key is shown once and stored only as a hash. Key:');
  console.log(secret);
}

function list(stores: Stores): void {
  const rows = stores.keys.list().map((key) => [
    key.id, `${key.keyPrefix}…`, key.sandbox ? 'sandbox' : 'live', String(key.balance), key.scopes.join(','),
    key.revokedAt ? `revoked ${key.revokedAt}` : key.expiresAt ? `expires ${key.expiresAt}` : 'active', key.name ?? '',
  ]);
  const header = ['id', 'prefix', 'mode', 'balance', 'scopes', 'state', 'name'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}

function keyArgument(stores: Stores, text: string | undefined) {
  if (!text) throw new UsageError('name the key by its id (key_…) or its prefix (wsdq_live_… as key:list shows it)');
  const key = stores.keys.find(text.replace(/…$/, ''));
  if (!key) throw new UsageError(`no key ${text}`);
  return key;
}

function revoke(stores: Stores, args: string[]): void {
  const key = keyArgument(stores, args[0]);
  console.log(stores.keys.revoke(key.id) ? `Revoked ${key.id}.` : `${key.id} was already revoked.`);
}

function credit(stores: Stores, args: string[]): void {
  const { values, positionals } = parseArgs({ args, options: { credits: { type: 'string' } }, allowPositionals: true });
  const key = keyArgument(stores, positionals[0]);
  const balance = stores.ledger.topUp(key.id, positiveInteger(values.credits, '--credits', false));
  console.log(`Added ${values.credits} credits to ${key.id}; balance ${balance}.`);
}

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (stores: Stores, args: string[]) => void> = { create, list: (stores) => list(stores), revoke, credit };
const run = commands[command ?? ''];
if (!run) {
  console.error(`usage: node server/cli/keys.ts <${Object.keys(commands).join('|')}> [options]`);
  process.exit(2);
}
const stores = openStores(readConfig().databaseUrl);
try {
  run(stores, rest);
} catch (error) {
  if (!(error instanceof UsageError) && !(error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw error;
  console.error(`error: ${(error as Error).message}`);
  process.exitCode = 2;
} finally {
  stores.database.close();
}
