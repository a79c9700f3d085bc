/**
 * API keys: issued with a random secret, stored only as its SHA-256, found and compared in constant
 * time. A key found for a call is reused for the next calls with it for up to KEY_CACHE_MS, so a
 * call costs no database read for its key: a revocation made through another store (another
 * instance, the key commands) is seen within that bound, one made through this store at once.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ulid } from '../../lib/request-id.ts';
import type { SqlDatabase } from './sql.ts';

export const PLATFORM_SCOPES = ['web', 'shortvideo', 'finance', 'microblog', 'socialnet'] as const;
export type Scope = (typeof PLATFORM_SCOPES)[number];

export interface ApiKey {
  id: string;
  keyPrefix: string;
  name: string | null;
  sandbox: boolean;
  scopes: Scope[];
  balance: number;
  rateLimit: { requests: number; windowSeconds: number } | null;
  webhookSecret: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface NewKeyOptions {
  credits: number;
  scopes?: Scope[];
  sandbox?: boolean;
  expiresAt?: string | null;
  name?: string | null;
  rateLimit?: { requests: number; windowSeconds: number } | null;
}

interface KeyRow {
  id: string;
  key_hash: string;
  key_prefix: string;
  name: string | null;
  sandbox: number;
  scopes: string;
  balance: number;
  rate_limit_requests: number | null;
  rate_limit_window_seconds: number | null;
  webhook_secret: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** How long a key read for a call is reused in this process before it is read again. */
export const KEY_CACHE_MS = 1000;

/** Keys kept at most (the oldest read is dropped first); unknown secrets are never kept. */
const CACHED_KEYS = 10_000;

export interface ApiKeyStoreOptions {
  /** How long a key found by its secret is reused (KEY_CACHE_MS; 0 reads it on every call). */
  cacheMs?: number;
  /** The time in milliseconds (tests pass their own). */
  now?: () => number;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let text = '';
  for (let i = 0; text.length < length; i++) {
    const byte = bytes[i % bytes.length]!;
    if (byte < 248) text += BASE62[byte % 62];
  }
  return text;
}

/** SHA-256 of a key: keys are 190 bits of randomness, so a fast hash cannot be brute-forced. */
export function hashKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    keyPrefix: row.key_prefix,
    name: row.name,
    sandbox: row.sandbox === 1,
    scopes: row.scopes.split(',').filter(Boolean) as Scope[],
    balance: row.balance,
    rateLimit: row.rate_limit_requests && row.rate_limit_window_seconds ? { requests: row.rate_limit_requests, windowSeconds: row.rate_limit_window_seconds } : null,
    webhookSecret: row.webhook_secret,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export class ApiKeyStore {
  private readonly database: SqlDatabase;
  private readonly cacheMs: number;
  private readonly now: () => number;
  /** Keys found by their secrets, by the secret's hash, with when they were read. */
  private readonly found = new Map<string, { key: ApiKey; readAtMs: number }>();
  /** Counts revocations through this store, before and after each: a read they overlapped is not kept. */
  private revocations = 0;

  constructor(database: SqlDatabase, options: ApiKeyStoreOptions = {}) {
    this.database = database;
    this.cacheMs = options.cacheMs ?? KEY_CACHE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Issues a key; the secret is returned here once and never stored. Its credits are the first ledger entry. */
  async create(options: NewKeyOptions, now: Date = new Date()): Promise<{ key: ApiKey; secret: string }> {
    const secret = `wsdq_${options.sandbox ? 'test' : 'live'}_${randomBase62(32)}`;
    const id = `key_${ulid(now.getTime())}`;
    const createdAt = now.toISOString();
    await this.database.transaction(async () => {
      await this.database.run(
        `INSERT INTO api_keys (id, key_hash, key_prefix, name, sandbox, scopes, balance, rate_limit_requests, rate_limit_window_seconds, webhook_secret, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id, hashKey(secret), secret.slice(0, 14), options.name ?? null, options.sandbox ? 1 : 0,
          (options.scopes ?? [...PLATFORM_SCOPES]).join(','), options.credits,
          options.rateLimit?.requests ?? null, options.rateLimit?.windowSeconds ?? null,
          `whsec_${randomBytes(24).toString('base64')}`, createdAt, options.expiresAt ?? null,
        ],
      );
      if (options.credits > 0) {
        await this.database.run(`INSERT INTO ledger (key_id, kind, amount, balance_after, created_at) VALUES (?, 'top_up', ?, ?, ?)`, [id, options.credits, options.credits, createdAt]);
      }
    });
    return { key: (await this.get(id))!, secret };
  }

  /** The key whose secret this is, compared in constant time, or undefined; as read at most KEY_CACHE_MS ago. */
  async findBySecret(secret: string): Promise<ApiKey | undefined> {
    const hash = hashKey(secret);
    const nowMs = this.now();
    const found = this.found.get(hash);
    if (found && nowMs - found.readAtMs < this.cacheMs) return found.key;
    this.found.delete(hash);
    const revocations = this.revocations;
    const row = await this.database.get<KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [hash]);
    if (!row || !timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    const key = toApiKey(row);
    if (this.cacheMs > 0 && revocations === this.revocations) {
      this.found.set(hash, { key, readAtMs: nowMs });
      if (this.found.size > CACHED_KEYS) this.found.delete(this.found.keys().next().value!);
    }
    return key;
  }

  async get(id: string): Promise<ApiKey | undefined> {
    const row = await this.database.get<KeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
    return row ? toApiKey(row) : undefined;
  }

  /** A key by its id or by the prefix shown in listings. */
  async find(idOrPrefix: string): Promise<ApiKey | undefined> {
    const row = await this.database.get<KeyRow>('SELECT * FROM api_keys WHERE id = ? OR key_prefix = ?', [idOrPrefix, idOrPrefix]);
    return row ? toApiKey(row) : undefined;
  }

  async list(): Promise<ApiKey[]> {
    return (await this.database.all<KeyRow>('SELECT * FROM api_keys ORDER BY id')).map(toApiKey);
  }

  /** Revokes a key; later calls with it answer 401 api_key_revoked (on other instances within KEY_CACHE_MS). */
  async revoke(id: string, now: Date = new Date()): Promise<boolean> {
    this.revocations++;
    const revoked = (await this.database.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now.toISOString(), id])) === 1;
    this.revocations++;
    for (const [hash, found] of this.found) if (found.key.id === id) this.found.delete(hash);
    return revoked;
  }
}
