import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['contract-tests/**/*.test.ts', 'lib/**/*.test.ts', 'scripts/**/*.test.ts', 'mock/**/*.test.ts', 'server/**/*.test.ts'],
    globalSetup: ['contract-tests/suite/global-setup.ts'],
    testTimeout: 30_000,
    maxConcurrency: 8,
    hookTimeout: 60_000,
  },
});
