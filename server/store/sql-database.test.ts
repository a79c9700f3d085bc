/** The SqlDatabase contract every backend keeps: statements, transactions that nest, and statements from outside a transaction kept out of it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STORE_BACKENDS } from '../test-support/store-backends.ts';
import { openStores } from './index.ts';
import type { SqlDatabase } from './sql.ts';

describe.each(STORE_BACKENDS)('SqlDatabase on $name', ({ newLocation }) => {
  let database: SqlDatabase;
  beforeEach(async () => {
    database = (await openStores(await newLocation())).database;
    await database.run(`CREATE TABLE notes (id ${database.dialect === 'sqlite' ? 'INTEGER' : 'SERIAL'} PRIMARY KEY, text TEXT NOT NULL)`);
  });
  afterEach(async () => {
    await database.close();
  });

  const texts = async () => (await database.all<{ text: string }>('SELECT text FROM notes ORDER BY id')).map((row) => row.text);

  it('runs statements with ? placeholders and answers rows and changed counts', async () => {
    expect(await database.run('INSERT INTO notes (text) VALUES (?), (?)', ['a', 'b'])).toBe(2);
    expect(await database.get<{ text: string }>('SELECT text FROM notes WHERE text = ?', ['b'])).toEqual({ text: 'b' });
    expect(await database.get('SELECT text FROM notes WHERE text = ?', ['c'])).toBeUndefined();
    expect(await texts()).toEqual(['a', 'b']);
  });

  it('rolls a transaction back when its work throws, and a nested transaction back alone (a savepoint)', async () => {
    await expect(database.transaction(async () => {
      await database.run('INSERT INTO notes (text) VALUES (?)', ['lost']);
      throw new Error('work failed');
    })).rejects.toThrow('work failed');
    await database.transaction(async () => {
      await database.run('INSERT INTO notes (text) VALUES (?)', ['kept']);
      await expect(database.transaction(async () => {
        await database.run('INSERT INTO notes (text) VALUES (?)', ['inner lost']);
        throw new Error('inner failed');
      })).rejects.toThrow('inner failed');
    });
    expect(await texts()).toEqual(['kept']);
  });

  it('a write made beside a transaction that rolls back is kept (it waits for the transaction instead of joining it)', async () => {
    let besideStarted!: () => void;
    const started = new Promise<void>((resolve) => (besideStarted = resolve));
    const failing = database.transaction(async () => {
      await database.run('INSERT INTO notes (text) VALUES (?)', ['rolled back']);
      besideStarted();
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('work failed');
    });
    await started;
    const beside = database.run('INSERT INTO notes (text) VALUES (?)', ['beside']);
    await expect(failing).rejects.toThrow('work failed');
    await beside;
    expect(await texts()).toEqual(['beside']);
  });

  it('transactions started at once all commit, none losing another\'s writes', async () => {
    await database.run('CREATE TABLE counts (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)');
    await database.run('INSERT INTO counts (id, n) VALUES (1, 0)');
    const increment = (index: number) => database.transaction(async () => {
      await database.run('INSERT INTO notes (text) VALUES (?)', [`step ${index}`]);
      await new Promise((resolve) => setTimeout(resolve, 1));
      await database.run('UPDATE counts SET n = n + 1 WHERE id = 1');
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => increment(index)));
    expect(await database.get('SELECT n FROM counts WHERE id = 1')).toEqual({ n: 10 });
    expect(await texts()).toHaveLength(10);
  });
});
