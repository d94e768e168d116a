/**
 * Where `@modelcontextprotocol/server-everything` is installed, for tests that run it as a
 * real upstream: `node <EVERYTHING_BIN> [stdio|sse|streamableHttp]`.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bundledFixture } from './fixtures.js';

const require = createRequire(import.meta.url);

/**
 * Absolute path of server-everything's `dist/index.js`, or of its bundle where the run made one
 * (bundle-fixture-servers.ts: the same code, started in half the CPU time).
 */
export const EVERYTHING_BIN =
  bundledFixture('everything/bin/index.mjs') ??
  join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

export { createServer as createEverythingServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
