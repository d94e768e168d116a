/**
 * Replicas for the cluster tests (issue 22): `bnity serve` child processes on one test
 * PostgreSQL database, each with its own home and port, and the admin API of each.
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TINY_SERVER } from './fixtures.js';
import { type ServeProcess, spawnServe } from './serve-process.js';

export const CLUSTER_TOKEN = 'cluster-test-token';

/** A running replica: its URL, its log so far (JSON lines), its API, and its stop. */
export type Replica = {
  readonly id: string;
  readonly url: string;
  readonly home: string;
  readonly config: string;
  /** Its `bnity serve` process. */
  readonly process: ServeProcess;
  log(): string;
  api<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  stop(): Promise<number | null>;
};

/** An API answer: its status and JSON body. */
export type Answer<T> = { status: number; body: T };

/** A stdio server entry of the tiny test server, as a config names it. */
export const tinyEntry = (text = 'tiny') => ({ command: process.execPath, args: [TINY_SERVER, text] });

/** A server entry that is configured but never started: an edit of it changes the config, not the processes. */
export const disabledEntry = () => ({ command: process.execPath, args: ['-e', '0'], enabled: false });

/** What else a replica may be started with: more of its config file, more environment. */
export type ReplicaExtras = { readonly settings?: Record<string, unknown>; readonly env?: NodeJS.ProcessEnv };

/**
 * Start replica `id` on `databaseUrl`, with a config file of `servers` (and `extras.settings`
 * beside them); `cleanup` gets what stops it.
 */
export async function startReplica(
  id: string,
  databaseUrl: string,
  servers: Record<string, unknown>,
  cleanup: (() => Promise<unknown>)[],
  extras: ReplicaExtras = {},
): Promise<Replica> {
  const home = await mkdtemp(join(tmpdir(), `bnity-replica-${id}-`));
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  const config = join(home, 'boternity.json');
  // A short stop: each waits up to its shutdown grace for connections that sent nothing (the
  // test's HTTP client leaves some), 3 s by default; the cluster tests stop replicas only to end.
  const settings = { shutdown: { graceMs: 300 }, ...extras.settings };
  await writeFile(config, `${JSON.stringify({ ...settings, mcpServers: servers }, null, 2)}\n`);
  const serve: ServeProcess = await spawnServe(['--port', '0', '--config', config], {
    BOTERNITY_HOME: home,
    BOTERNITY_ADMIN_TOKEN: CLUSTER_TOKEN,
    BOTERNITY_DATABASE_URL: databaseUrl,
    BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    BOTERNITY_REPLICA_ID: id,
    BOTERNITY_LOG_LEVEL: 'info',
    ...extras.env,
  });
  let stopped: Promise<number | null> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
      return (await serve.exited).code;
    })();
    return stopped;
  };
  cleanup.push(stop);
  return {
    id,
    url: serve.url,
    home,
    config,
    process: serve,
    log: serve.stdout,
    stop,
    async api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(`${serve.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${CLUSTER_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}

/** The names of the servers `replica` lists in `/api/servers`, sorted. */
export async function serverNames(replica: Replica): Promise<string[]> {
  const { body } = await replica.api<{ servers: { name: string }[] }>('GET', '/api/servers');
  return body.servers.map((s) => s.name).sort();
}

/** The lines of `replica`'s log whose message matches `pattern`. */
export function logLines(replica: Replica, pattern: RegExp): string[] {
  return replica
    .log()
    .split('\n')
    .filter((line) => {
      try {
        return pattern.test(String((JSON.parse(line) as { msg?: unknown }).msg));
      } catch {
        return false;
      }
    });
}
