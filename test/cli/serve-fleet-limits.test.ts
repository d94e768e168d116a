/**
 * Limits across replicas with `bnity serve` as real processes (issue 22 part 6, ADR 042):
 * two replicas on one PostgreSQL database share a token's rate limit (the total admitted
 * within ±10 % of the configured number); the sessions of a replica killed with `kill -9`
 * hold the token's cap on the survivor only until three of the dead replica's heartbeats
 * are missed, then the survivor admits new ones.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postInitialize } from '../support/initialize.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'fleet-limits-admin';
const auth = { authorization: `Bearer ${TOKEN}` };
const REQUESTS = 30;
const HEARTBEAT_MS = 1_000;

describe('bnity serve: limits across two replicas on one PostgreSQL', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  const replicas: ServeProcess[] = [];
  let sql: postgres.Sql;

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    cleanup.push(database.drop);
    sql = postgres(database.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => sql.end());
    for (const id of ['one', 'two']) {
      const home = await mkdtemp(join(tmpdir(), `bnity-fleet-${id}-`));
      cleanup.push(() => rm(home, { recursive: true, force: true }));
      const config = join(home, 'boternity.json');
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {},
          limits: {
            perClient: { requests: REQUESTS, perSeconds: 600 },
            fleet: { sessionHeartbeatMs: HEARTBEAT_MS },
          },
          gateway: { maxSessionsPerToken: 2 },
        }),
      );
      const env = {
        BOTERNITY_HOME: home,
        BOTERNITY_ADMIN_TOKEN: TOKEN,
        BOTERNITY_DATABASE_URL: database.url,
        BOTERNITY_KEYSTORE_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        BOTERNITY_REPLICA_ID: id,
      };
      const serve = await spawnServe(['--port', '0', '--config', config], env);
      replicas.push(serve);
      cleanup.push(async () => {
        if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
        await serve.exited;
      });
    }
  }, 60_000);
  afterAll(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  it('shares a token rate limit: the total admitted across both is within ±10 % of the configured number', async () => {
    const [one, two] = replicas as [ServeProcess, ServeProcess];
    const made = await fetch(`${one.url}/api/tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'agent' }),
    });
    const { token } = (await made.json()) as { token: string };
    // A GET of /mcp without a session is counted, then refused (400); over the limit, 429.
    const statuses = await Promise.all(
      Array.from({ length: 3 * REQUESTS }, async (_, i) => {
        const on = i % 2 === 0 ? one : two;
        const res = await fetch(`${on.url}/mcp`, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        });
        return res.status;
      }),
    );
    const admitted = statuses.filter((s) => s === 400).length;
    expect(admitted + statuses.filter((s) => s === 429).length).toBe(3 * REQUESTS);
    expect(admitted).toBeGreaterThanOrEqual(REQUESTS * 0.9);
    expect(admitted).toBeLessThanOrEqual(REQUESTS * 1.1);
  });

  it("frees a killed replica's sessions on the survivor after three missed heartbeats", async () => {
    const [one, two] = replicas as [ServeProcess, ServeProcess];
    for (let i = 0; i < 2; i++) expect((await postInitialize(`${one.url}/mcp`, auth)).status).toBe(200);
    await waitFor(async () => (await sql`select count(*)::int as n from fleet_sessions`)[0]?.n === 2, {
      what: "replica one's two rows",
    });
    one.child.kill('SIGKILL');
    await one.exited;
    const killedAt = Date.now();
    // Its rows still count: the token is at its cap, and two has no idle session of it to close.
    const refused = await postInitialize(`${two.url}/mcp`, auth);
    if (Date.now() - killedAt < 3 * HEARTBEAT_MS) expect(refused.status).toBe(429);
    await waitFor(async () => (await postInitialize(`${two.url}/mcp`, auth)).status === 200, {
      what: 'a session admitted on the survivor',
      intervalMs: 200,
    });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(2 * HEARTBEAT_MS);
    // The dead replica's rows are deleted by the survivor's heartbeat.
    await waitFor(
      async () => (await sql`select count(*)::int as n from fleet_sessions where holder like 'one/%'`)[0]?.n === 0,
      {
        what: "replica one's rows deleted",
      },
    );
  });
});
