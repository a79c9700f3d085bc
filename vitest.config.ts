import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Every Node process the tests start (servers, the mock, the CLIs, the toolchain's scripts) keeps its
// TypeScript stripped and compiled in Node's compile cache: a spawned CLI starts in ~0.15 s, not ~0.4 s.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

export default defineConfig({
  test: {
    include: ['contract-tests/**/*.test.ts', 'lib/**/*.test.ts', 'scripts/**/*.test.ts', 'mock/**/*.test.ts', 'server/**/*.test.ts'],
    globalSetup: ['contract-tests/suite/global-setup.ts'],
    testTimeout: 30_000,
    maxConcurrency: 8,
    hookTimeout: 60_000,
    // Much of a test file's time is spent waiting (on spawned servers, PostgreSQL, Chromium, timers):
    // one file more than the cores, so a file that waits leaves its core to another (on 2 cores, 3
    // workers ran server/ and scripts/ in 60 s rather than 68-69 s, the same CPU; the CPU-bound
    // contract-tests/, mock/ and lib/ took the same 35 s either way). Not vitest's default of one fewer.
    maxWorkers: availableParallelism() + 1,
    // A worker runs file after file in one module graph: the contract, its Ajv validators and the
    // server's modules are loaded once per worker, not once per file. No test file mocks modules,
    // stubs globals or changes process.env (each server under test gets its own env and stores).
    isolate: false,
  },
});
