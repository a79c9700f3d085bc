import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { logLines } from './log-lines.ts';

describe('the request log', () => {
  it('writes the lines of one turn of the event loop together, in order, before the next turn', async () => {
    const writes: string[] = [];
    const lines = logLines((text) => writes.push(text));
    lines.log('first');
    lines.log('second');
    expect(writes).toEqual([]);
    await nextTurn();
    lines.log('third');
    await nextTurn();
    expect(writes).toEqual(['first\nsecond\n', 'third\n']);
  });

  it('writes the pending lines at once on flush (a stop), and nothing twice', async () => {
    const writes: string[] = [];
    const lines = logLines((text) => writes.push(text));
    lines.log('last before stop');
    lines.flush();
    expect(writes).toEqual(['last before stop\n']);
    await nextTurn();
    lines.flush();
    expect(writes).toEqual(['last before stop\n']);
  });
});
