import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes drawn in blocks: one system call per 256 ids rather than one per id. */
const pool = Buffer.alloc(16 * 256);
let poolOffset = pool.length;

function randomSixteen(): Buffer {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  return bytes;
}

/** A ULID: 10 characters of millisecond time, then 16 random ones, in Crockford's base 32. */
export function ulid(now: number = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  const random = randomSixteen();
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[random[i]! % 32];
  return time + tail;
}

/** A request identifier as the contract shapes it: `req_` and a ULID. */
export function newRequestId(): string {
  return `req_${ulid()}`;
}
