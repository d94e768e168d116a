import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn bin/bnity.js run dist/: rebuilt first when a source is newer.
    globalSetup: ['test/support/build-once.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real servers: keep parallelism to the 2 cores CI has.
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    env: { BOTERNITY_LOG_LEVEL: 'silent' },
  },
});
