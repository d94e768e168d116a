/**
 * Start the real service in-process on 127.0.0.1:0 with a temp home and a config file;
 * the tests talk to it over real HTTP.
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, pino } from 'pino';
import type { VerifyToken } from '../../src/guard/caller.js';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { type Service, startService } from '../../src/main.js';
import type { Tracing } from '../../src/telemetry/start-tracing.js';
import { openSse } from './sse-client.js';

export const TEST_TOKEN = 'test-admin-token';

/** A service under test. */
export type TestService = Awaited<ReturnType<typeof startTestService>>;

/** Start boternity with `config` written to `<home>/boternity.json`. */
export async function startTestService(
  config: unknown,
  {
    home: givenHome,
    verifyToken,
    secrets,
    tracing,
    env: extraEnv,
    log,
  }: {
    home?: string;
    verifyToken?: VerifyToken /** The values the log masks, to look into. */;
    secrets?: Set<string>;
    /** Traces made by the test (an in-memory exporter), as `ServiceOptions.tracing`. */
    tracing?: Tracing;
    /** Variables besides the process's (`BOTERNITY_DATABASE_URL`: a replica on PostgreSQL). */
    env?: NodeJS.ProcessEnv;
    /** The service's logger (default: silent, or `BOTERNITY_TEST_LOG`'s level). */
    log?: Logger;
  } = {},
) {
  const home = givenHome ?? (await mkdtemp(join(tmpdir(), 'bnity-test-')));
  const configPath = join(home, 'boternity.json');
  await writeFile(configPath, `${JSON.stringify(config, null, 2)}\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, ...extraEnv };
  delete env.DATABASE_URL;
  // A replica on PostgreSQL keeps its secrets in the database, sealed with this key (ADR 041).
  if (env.BOTERNITY_DATABASE_URL && !env.BOTERNITY_KEYSTORE_KEY) env.BOTERNITY_KEYSTORE_KEY = 'ab'.repeat(32);
  const service: Service = await startService({
    home,
    config: configPath,
    port: 0,
    env,
    log: log ?? pino({ level: process.env.BOTERNITY_TEST_LOG ?? 'silent' }),
    ...(verifyToken ? { verifyToken } : {}),
    ...(secrets ? { secrets } : {}),
    ...(tracing ? { tracing } : {}),
  });
  const auth = { authorization: `Bearer ${TEST_TOKEN}` };
  const api = async <T = unknown>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${service.url}${path}`, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  /** A JSON body sent with `method` (POST, PUT, PATCH…), as the API's scripts send it. */
  const send = <T = unknown>(method: string, path: string, body: unknown) =>
    api<T>(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const servers = async (): Promise<ServerStatus[]> =>
    (await api<{ servers: ServerStatus[] }>('/api/servers')).body.servers;
  const server = async (name: string): Promise<ServerStatus | undefined> =>
    (await servers()).find((s) => s.name === name);
  let stopped = false;
  return {
    service,
    home,
    configPath,
    api,
    send,
    servers,
    server,
    events: (query = '') => openSse(`${service.url}/api/events${query}`, auth),
    writeConfig: (next: unknown) => writeFile(configPath, `${JSON.stringify(next, null, 2)}\n`),
    async stop() {
      if (stopped) return;
      stopped = true;
      await service.stop('test');
      if (!givenHome) await rm(home, { recursive: true, force: true });
    },
  };
}
