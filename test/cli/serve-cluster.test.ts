/**
 * Replicas as real processes (`bnity serve`, issue 22 parts 7–9, ADR 041) on one PostgreSQL
 * database: each reports which replica it is (`/api/servers`, `/api/events`, `/readyz`);
 * `GET /api/cluster` and `bnity cluster` on either show both with their own stdio children;
 * a leader killed with `kill -9` is replaced within seconds and shown stale; restarted, it
 * reaps its own orphan and leaves the other replica's child alone; a clean stop shows stopped.
 * The keystore lives in the database: a secret set on one replica is used by the other; a
 * replica without the key, or with another one, stops in one line and nothing is lost.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterView } from '../../src/cluster/index.js';
import { isAlive } from '../../src/upstream/process-tree.js';
import { fixtureServer, TINY_SERVER } from '../support/fixtures.js';
import { runBnity, type ServeProcess, spawnServe } from '../support/serve-process.js';
import { openSse } from '../support/sse-client.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'cluster-test-token';
const KEY = 'cd'.repeat(32);
const ENV_SERVER = fixtureServer('env-server.mjs');
const auth = { authorization: `Bearer ${TOKEN}` };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

type ServerEntry = { name: string; state: string; pid: number | null; replica: string | null };

/** A database, and what starts a replica of it with its own home. */
async function fleet(servers: Record<string, unknown>) {
  const database = await createPostgresDatabase({ empty: true });
  cleanup.push(database.drop);
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  cleanup.push(() => sql.end());
  const dir = await mkdtemp(join(tmpdir(), 'bnity-cluster-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'boternity.json');
  await writeFile(
    config,
    JSON.stringify({ mcpServers: servers, replicas: { heartbeatMs: 200, staleAfterMs: 1_500, leaderRetryMs: 200 } }),
  );
  const base = { BOTERNITY_ADMIN_TOKEN: TOKEN, BOTERNITY_DATABASE_URL: database.url, BOTERNITY_KEYSTORE_KEY: KEY };
  const start = async (id: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> => {
    const serve = await spawnServe(['--port', '0', '--config', config, '--home', join(dir, id)], {
      ...base,
      BOTERNITY_REPLICA_ID: id,
      ...env,
    });
    cleanup.push(async () => {
      if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
      await serve.exited;
    });
    return serve;
  };
  const run = (id: string, env: NodeJS.ProcessEnv) =>
    runBnity(['serve', '--port', '0', '--config', config, '--home', join(dir, id)], { ...base, ...env });
  return { start, run, sql, env: base, dir };
}

const get = async <T>(serve: ServeProcess, path: string): Promise<T> => {
  const res = await fetch(`${serve.url}${path}`, { headers: auth });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const cluster = (serve: ServeProcess) => get<ClusterView>(serve, '/api/cluster');
const tinyOf = async (serve: ServeProcess) =>
  waitFor(
    async () =>
      (await get<{ servers: ServerEntry[] }>(serve, '/api/servers')).servers.find(
        (s) => s.name === 'tiny' && s.state === 'connected',
      ),
    { what: 'tiny connected', timeoutMs: 20_000 },
  );

describe('replicas on one PostgreSQL database', () => {
  it('say who they are, share a fleet view, hand leadership over on kill -9, and reap only their own', async () => {
    const { start, run, sql } = await fleet({ tiny: { command: process.execPath, args: [TINY_SERVER] } });
    let a = await start('a');
    const b = await start('b');
    const [tinyA, tinyB] = [await tinyOf(a), await tinyOf(b)];
    expect(tinyA.replica).toBe('a');
    expect(tinyB.replica).toBe('b');
    expect(tinyA.pid).not.toBe(tinyB.pid);
    expect(await get(b, '/readyz')).toMatchObject({ status: 'ready', replica: 'b' });
    const events = await openSse(`${a.url}/api/events`, auth);
    cleanup.push(() => events.close());
    const snapshot = await events.next((e) => e.event === 'snapshot');
    expect(snapshot.data).toMatchObject({ replica: 'a', servers: [expect.objectContaining({ replica: 'a' })] });

    // Either replica answers the same fleet: both alive, the first one leading, each with its own child.
    const both = await waitFor(
      async () => {
        const view = await cluster(b);
        const servers = view.replicas.map((r) => r.servers.find((s) => s.name === 'tiny')?.state);
        return servers.join() === 'connected,connected' ? view : null;
      },
      { what: 'both replicas and their servers in the fleet view' },
    );
    expect(both).toMatchObject({ replica: 'b', database: 'postgres', leader: 'a' });
    expect(both.replicas.map((r) => [r.id, r.status, r.leader, r.self])).toEqual([
      ['a', 'alive', true, false],
      ['b', 'alive', false, true],
    ]);
    expect(both.replicas.map((r) => r.servers[0]?.pid)).toEqual([tinyA.pid, tinyB.pid]);
    expect(both.replicas[0]?.version).toMatch(/^\d+\.\d+\.\d+/);
    const printed = await runBnity(['cluster', '--url', b.url], { BOTERNITY_ADMIN_TOKEN: TOKEN });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/^a\s+alive\s+yes\s/m);
    expect(printed.stdout).toMatch(/^b \*\s+alive\s/m);
    expect(printed.stdout).toMatch(new RegExp(`^b\\s+tiny\\s+connected\\s+${tinyB.pid}\\s`, 'm'));
    // A third process given b's id (another home) is refused in one line; b goes on.
    const twin = await run('b-twin', { BOTERNITY_REPLICA_ID: 'b' });
    expect(twin.code).toBe(1);
    expect(twin.stderr.trim().split('\n')).toHaveLength(1);
    expect(twin.stderr).toMatch(
      /BOTERNITY_REPLICA_ID "b" is in use: a live replica beats with it .*; give each replica its own id/,
    );
    expect((await cluster(b)).replicas.find((r) => r.id === 'b')?.status).toBe('alive');

    // The leader dies without a word: its session ends, and b takes the lock.
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    await waitFor(async () => (await cluster(b)).leader === 'b', { what: 'b leading', timeoutMs: 10_000 });
    const takeover = Date.now() - killedAt;
    expect(takeover).toBeLessThan(5_000);
    const stale = await waitFor(
      async () => {
        const view = await cluster(b);
        return view.replicas.find((r) => r.id === 'a')?.status === 'stale' ? view : null;
      },
      { what: 'a shown stale' },
    );
    expect(stale.replicas.map((r) => [r.id, r.status, r.leader])).toEqual([
      ['a', 'stale', false],
      ['b', 'alive', true],
    ]);
    // a comes back: its start-up reaping reads only its own ledger rows. Before replicas had
    // ids it read b's too, and ended b's child (same host: its pid and start time match).
    a = await start('a');
    await tinyOf(a);
    expect(isAlive(tinyB.pid ?? -1)).toBe(true);
    const rows = await sql`select replica, pid from upstream_processes order by replica`;
    expect(rows.filter((r) => r.replica === 'b')).toEqual([{ replica: 'b', pid: tinyB.pid }]);
    expect((await cluster(a)).replicas.find((r) => r.id === 'a')?.status).toBe('alive');

    b.child.kill('SIGTERM');
    expect((await b.exited).code).toBe(0);
    const after = await waitFor(
      async () => {
        const view = await cluster(a);
        return view.leader === 'a' ? view : null;
      },
      { what: 'a leading again' },
    );
    // A clean stop ended b's children: it shows none.
    expect(after.replicas.map((r) => [r.id, r.status, r.servers.length])).toEqual([
      ['a', 'alive', 1],
      ['b', 'stopped', 0],
    ]);
  }, 90_000);

  it('keeps the keystore in the database: set on one replica, used by the other; a missing or wrong key stops a start in one line', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: `${secret:NAME}` is config syntax, not a template
    const servers = { envy: { command: process.execPath, args: [ENV_SERVER], env: { TOKEN: '${secret:api}' } } };
    const { start, run, env, dir } = await fleet(servers);
    const missing = await run('c', { BOTERNITY_KEYSTORE_KEY: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual([
      "bnity: a PostgreSQL database keeps the keystore in the database, sealed with BOTERNITY_KEYSTORE_KEY: set it, the same on every replica (e.g. 'openssl rand -hex 32')",
    ]);
    const a = await start('a');
    const b = await start('b');
    const put = await fetch(`${a.url}/api/credentials/api`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'sk-shared-secret' }),
    });
    expect(put.status).toBe(204);
    // b reads it at its server's next connect.
    await fetch(`${b.url}/api/servers/envy/connect`, { method: 'POST', headers: auth });
    const text = await waitFor(
      async () => {
        const res = await fetch(`${b.url}/api/servers/envy/tools/env/call`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ arguments: { name: 'TOKEN' } }),
        });
        if (!res.ok) return null;
        const body = (await res.json()) as { result?: { content?: { text?: string }[] } };
        return body.result?.content?.[0]?.text ?? null;
      },
      { what: "b's server started with the secret set on a", timeoutMs: 20_000 },
    );
    expect(text).toBe('sk-shared-secret');

    const wrong = await run('c', { BOTERNITY_KEYSTORE_KEY: 'ef'.repeat(32) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toEqual([
      'bnity: keystore: cannot decrypt "api" in the database: BOTERNITY_KEYSTORE_KEY is not the key it was sealed with (give every replica the same key)',
    ]);
    expect(await get(a, '/api/credentials')).toEqual({ credentials: [{ name: 'api' }] });
    // Nor another admin token than the live replicas' (K5): admin requests through a balancer would fail on some.
    const otherAdmin = await run('c', { BOTERNITY_ADMIN_TOKEN: 'another-admin-token' });
    expect(otherAdmin.code).toBe(1);
    expect(otherAdmin.stderr.trim().split('\n')).toEqual([
      'bnity: BOTERNITY_ADMIN_TOKEN is not the one the live replicas were given (a, b): give every replica the same BOTERNITY_ADMIN_TOKEN',
    ]);
    // The CLI with no service writes where the replicas read: the database, not a home's file.
    const home = join(dir, 'cli');
    const set = await runBnity(['mcp', 'credential', 'set', 'cli-set', '--home', home], env, undefined, 'from-cli\n');
    expect(set.stdout, set.stderr).toBe('saved credential "cli-set" in database:keystore_entries\n');
    expect(await get(b, '/api/credentials')).toEqual({ credentials: [{ name: 'api' }, { name: 'cli-set' }] });
    const listed = await runBnity(['mcp', 'credential', 'list', '--home', home], env);
    expect(listed.stdout).toBe('api\ncli-set\n');
  }, 90_000);
});
