/**
 * Replicas in one process for the cluster tests of sealed sessions (issue 22, ADR 039): real
 * services (`startService`) on one PostgreSQL test database with one cluster key, each on a
 * fixed port of 127.0.0.1 (so a restarted replica is found where it was) and its own home,
 * all serving one in-process Streamable HTTP upstream (`asking-upstream.ts`: `echo`, sampling,
 * elicitation, cancellation, progress, logging, a subscribable resource); the round-robin
 * balancer of the tests in front. HTTP upstreams only: no stdio children, whose records the
 * replicas would share.
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { type Service, startService } from '../../src/main.js';
import { type AskingUpstream, startAskingUpstream, type UpstreamSession } from './asking-upstream.js';

import { freePort } from './free-port.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';
import { createPostgresDatabase } from './test-db.js';

export const REPLICA_TOKEN = 'sealed-replicas-admin-token';
const CLUSTER_KEY = 'test-cluster-key-0123456789abcdefghijklmnop';

/** An SDK client on a new session of `base`'s `/mcp` with the replicas' admin token. */
export async function connectReplica(base: string, name = 'across-replicas') {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${REPLICA_TOKEN}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A replica: its base URL, its service while it runs, and its restart. */
export type SealedReplica = { readonly url: string; service: Service | null };

/** The cluster: its replicas, the balancer, and what stops and restarts them. */
export type SealedCluster = {
  readonly replicas: readonly SealedReplica[];
  readonly proxy: RoundRobinProxy;
  /** The upstream every replica serves as `up`. */
  readonly upstream: AskingUpstream;
  /** The PostgreSQL database the replicas share. */
  readonly databaseUrl: string;
  /** Stop replica `i` as SIGTERM would (drained), then start it again on its port and home. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Start `count` replicas and the balancer; each replica's upstream connected before this resolves.
 * `upstream`: the sessions of the upstream they share (default: the asking upstream's);
 * `scope`: the upstream's (`session`: each agent session has its own connection on each replica).
 */
export async function startSealedCluster(
  count: number,
  {
    upstream: newSession,
    scope = 'shared',
    allowedHosts,
    gateway,
  }: {
    upstream?: UpstreamSession;
    scope?: 'shared' | 'session';
    /** `http.allowedHosts` of every replica (a balancer in front forwarding its own Host). */
    allowedHosts?: string[];
    /** The `gateway` settings of every replica (its session caps). */
    gateway?: Record<string, unknown>;
  } = {},
): Promise<SealedCluster> {
  const upstream = await startAskingUpstream(newSession ? { newSession } : {});
  const database = await createPostgresDatabase();
  const env = {
    ...process.env,
    BOTERNITY_ADMIN_TOKEN: REPLICA_TOKEN,
    BOTERNITY_DATABASE_URL: database.url,
    BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    BOTERNITY_CLUSTER_KEY: CLUSTER_KEY,
  };
  const homes: string[] = [];
  const ports: number[] = [];
  const start = async (i: number): Promise<Service> => {
    const home = homes[i] as string;
    const service = await startService({
      home,
      config: join(home, 'boternity.json'),
      port: ports[i] as number,
      env,
      log: pino({ level: process.env.BOTERNITY_TEST_LOG ?? 'silent' }),
    });
    for (let tries = 0; service.hub.listServers().find((s) => s.name === 'up')?.state !== 'connected'; tries++) {
      if (tries > 400) throw new Error(`replica ${i}: upstream not connected`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return service;
  };
  const replicas: SealedReplica[] = [];
  for (let i = 0; i < count; i++) {
    const home = await mkdtemp(join(tmpdir(), 'bnity-replica-'));
    const config = {
      mcpServers: { up: { url: upstream.url, scope } },
      ...(allowedHosts ? { http: { allowedHosts } } : {}),
      ...(gateway ? { gateway } : {}),
    };
    await writeFile(join(home, 'boternity.json'), JSON.stringify(config));
    homes.push(home);
    ports.push(await freePort());
    replicas.push({ url: `http://127.0.0.1:${ports[i]}`, service: await start(i) });
  }
  const proxy = await startRoundRobinProxy(replicas.map((r) => r.url));
  return {
    replicas,
    proxy,
    upstream,
    databaseUrl: database.url,
    async restart(i) {
      const replica = replicas[i] as SealedReplica;
      await replica.service?.stop('SIGTERM');
      replica.service = null;
      replica.service = await start(i);
    },
    async stop() {
      await proxy.close();
      for (const replica of replicas) await replica.service?.stop();
      for (const home of homes) await rm(home, { recursive: true, force: true });
      await database.drop();
      upstream.close();
    },
  };
}
