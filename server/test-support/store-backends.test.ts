/** The store tests' SQLite files are made inside the run's folder, which global setup removes after the run (regression: they were left in the temporary folder). */
import { dirname } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { STORE_BACKENDS } from './store-backends.ts';

describe('the store backends of the tests', () => {
  it('make each SQLite database in a folder of its own inside the run folder', async () => {
    const sqlite = STORE_BACKENDS.find((backend) => backend.name === 'SQLite')!;
    const [first, second] = [await sqlite.newLocation(), await sqlite.newLocation()];
    expect(dirname(dirname(first))).toBe(inject('runFolder'));
    expect(dirname(first)).not.toBe(dirname(second));
  });
});
