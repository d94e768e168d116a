import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn bin/bnity.js run dist/: rebuilt first when a source is newer.
    // One PostgreSQL for the run: the storage tests run on both databases (ADR 036).
    // The fixture MCP servers the tests spawn (250-odd starts) are bundled once, to start faster.
    globalSetup: [
      'test/support/build-once.ts',
      'test/support/postgres-global.ts',
      'test/support/bundle-fixture-servers.ts',
    ],
    pool: 'forks',
    // A worker keeps the modules it loaded from one file to the next: nothing here mocks a
    // module or relies on a module's state starting fresh, and every service, browser and
    // child a file starts, it stops. Loading the SDK, playwright and our graph again for each
    // of 240 files was 126 s of a 392 s run on the 2-core machine; without it, 243 s.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests spawn real servers: keep parallelism to the 2 cores CI has.
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Every process a test starts is a node on 127.0.0.1 (the service, the CLI, stdio servers):
    // none needs a CA of the machine's. A machine that names a CA file in NODE_EXTRA_CA_CERTS
    // (the 2-vCPU AMD ones here do) makes each of them read it before it runs: 60 ms a start,
    // over the suite's thousands of starts, a fifth of its time there.
    env: { BOTERNITY_LOG_LEVEL: 'silent', NODE_EXTRA_CA_CERTS: '' },
  },
});
