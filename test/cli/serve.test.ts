/**
 * `bnity serve` as a real process: first run with defaults, clean shutdown on SIGTERM with
 * SSE clients open, orphans of a crashed run reaped at the next start, and CLI errors.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { isAlive, listDescendants } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { runMain } from '../support/run-main.js';
import { runBnity, spawnServe } from '../support/serve-process.js';
import { openSse } from '../support/sse-client.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'cli-test-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const node = process.execPath;
const homes: string[] = [];
const newHome = async () => {
  const home = await mkdtemp(join(tmpdir(), 'bnity-cli-'));
  homes.push(home);
  return home;
};
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});
const servers = async (url: string): Promise<ServerStatus[]> =>
  ((await (await fetch(`${url}/api/servers`, { headers: auth })).json()) as { servers: ServerStatus[] }).servers;
const allConnected = (url: string, count: number) =>
  waitFor(
    async () => {
      const list = await servers(url);
      return list.length === count && list.every((s) => s.state === 'connected') ? list : null;
    },
    { what: `${count} servers connected`, timeoutMs: 30_000 },
  );
// A server whose launcher leaves a grandchild that ignores stdin EOF.
const forking = {
  command: 'sh',
  args: ['-c', `'${node}' -e 'setInterval(() => {}, 1000)' & exec '${node}' '${TINY_SERVER}'`],
};

describe('bnity serve', () => {
  it('first run: writes a default config and an admin token, and connects the default servers', async () => {
    const home = await newHome();
    const cwd = await newHome();
    const serve = await spawnServe(['--port', '0'], { BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: '' }, cwd);
    try {
      expect(serve.stdout()).toContain(`${home}/boternity.json`);
      expect(serve.stdout()).toContain(`${home}/admin-token`);
      expect(serve.stdout()).toMatch(/MCP endpoint\s+http:\/\/127\.0\.0\.1:\d+\/mcp/);
      const token = (await readFile(join(home, 'admin-token'), 'utf8')).trim();
      expect((await stat(join(home, 'admin-token'))).mode & 0o777).toBe(0o600);
      const list = await waitFor(
        async () => {
          const r = await fetch(`${serve.url}/api/servers`, { headers: { authorization: `Bearer ${token}` } });
          const body = (await r.json()) as { servers: ServerStatus[] };
          return body.servers.length > 0 && body.servers.every((s) => s.state === 'connected') ? body.servers : null;
        },
        { what: 'default servers connected', timeoutMs: 30_000 },
      );
      expect(list.map((s) => s.name).sort()).toEqual(['everything', 'filesystem', 'memory']);
      for (const s of list) expect(s.toolCount).toBeGreaterThan(0);
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });

  it('SIGTERM with SSE clients open: exits 0 within 5 s and leaves no child process', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { plain: { command: node, args: [TINY_SERVER] }, wrapped: forking } }),
    );
    const serve = await spawnServe(['--port', '0', '--config', config], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: TOKEN,
    });
    const list = await allConnected(serve.url, 2);
    const pids = list.flatMap((s) => [s.pid as number, ...listDescendants(s.pid as number)]);
    expect(pids.length).toBeGreaterThanOrEqual(3);
    const clients = await Promise.all([
      openSse(`${serve.url}/api/events`, auth),
      openSse(`${serve.url}/api/events`, auth),
    ]);
    await clients[0].next((e) => e.event === 'snapshot');
    const t0 = Date.now();
    serve.child.kill('SIGTERM');
    const { code } = await serve.exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    for (const c of clients) await c.close();
  });

  describe('a second signal', () => {
    /** `bnity serve` whose drain takes a while: a server that ignores SIGTERM, 20 s of grace. */
    async function slowToDrain() {
      const home = await newHome();
      const config = join(home, 'boternity.json');
      const stubborn = { command: node, args: [TINY_SERVER], env: { TINY_IGNORE_SIGTERM: '1' } };
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { stubborn, wrapped: forking }, shutdown: { graceMs: 20_000 } }),
      );
      const serve = await spawnServe(['--port', '0', '--config', config], {
        BOTERNITY_HOME: home,
        BOTERNITY_ADMIN_TOKEN: TOKEN,
        BOTERNITY_LOG_LEVEL: 'info',
      });
      const list = await allConnected(serve.url, 2);
      const pids = list.flatMap((s) => [s.pid as number, ...listDescendants(s.pid as number)]);
      expect(pids.length).toBeGreaterThanOrEqual(3);
      return { serve, pids };
    }

    it('right after the first (Ctrl-C passed on by npm too) is the same stop: it drains, exit 0', async () => {
      const home = await newHome();
      const config = join(home, 'boternity.json');
      await writeFile(config, JSON.stringify({ mcpServers: { wrapped: forking } }));
      const serve = await spawnServe(['--port', '0', '--config', config], {
        BOTERNITY_HOME: home,
        BOTERNITY_ADMIN_TOKEN: TOKEN,
      });
      const [server] = await allConnected(serve.url, 1);
      const pids = [server?.pid as number, ...listDescendants(server?.pid as number)];
      serve.child.kill('SIGINT');
      serve.child.kill('SIGINT');
      expect((await serve.exited).code).toBe(0);
      expect(serve.stderr()).not.toContain('a second SIGINT');
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
    });

    it('a second or more after the first stops at once: exit 1, one line, every child killed', async () => {
      const { serve, pids } = await slowToDrain();
      const first = performance.now();
      serve.child.kill('SIGTERM');
      await waitFor(() => serve.stdout().includes('boternity stopping'), { what: 'the drain to begin' });
      // The drain waits 20 s for the server that ignores SIGTERM; the second signal is sent once a second has passed.
      await waitFor(() => performance.now() - first > 1_100, {
        what: 'a second since the first signal',
        intervalMs: 50,
      });
      const second = performance.now();
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(1);
      expect(performance.now() - second).toBeLessThan(5_000);
      expect(serve.stderr().trim().split('\n').at(-1)).toMatch(
        /^bnity: a second SIGTERM: stopped at once without draining \(\d+ child processes killed\)$/,
      );
      await waitFor(() => pids.every((pid) => !isAlive(pid)), { what: 'every child gone', timeoutMs: 5_000 });
    });
  });

  it('ends the children a crashed run left behind, at the next start', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { wrapped: forking } }));
    const env = { BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN };
    const first = await spawnServe(['--port', '0', '--config', config], env);
    const [server] = await allConnected(first.url, 1);
    const leftovers = listDescendants(server?.pid as number);
    expect(leftovers.length).toBeGreaterThanOrEqual(1);
    first.child.kill('SIGKILL');
    await first.exited;
    // The grandchild ignores stdin EOF: it outlives the crashed service.
    await new Promise((r) => setTimeout(r, 300));
    expect(leftovers.some(isAlive)).toBe(true);
    const second = await spawnServe(['--port', '0', '--config', config], env);
    try {
      await waitFor(() => leftovers.every((pid) => !isAlive(pid)), { what: 'orphans reaped', timeoutMs: 10_000 });
      // The new child is spawned before the database opens: it is never taken for an orphan,
      // and the ledger holds its row alone (the crashed run's were read and dropped first).
      const [now] = await allConnected(second.url, 1);
      expect(isAlive(now?.pid as number)).toBe(true);
      const { createDb } = await import('../../src/storage/create-db.js');
      const { createProcessLedger } = await import('../../src/storage/process-ledger.js');
      const store = await createDb({ url: `file:${join(home, 'boternity.db')}` });
      expect((await createProcessLedger(store.db).list()).map((row) => row.pid)).toEqual([now?.pid]);
      await store.close();
    } finally {
      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    }
  });

  it('refuses a broken config at start with one line naming the file, server and field (exit 1)', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { broken: { command: 42 } } }));
    const result = await runBnity(['serve', '--port', '0', '--config', config], { BOTERNITY_HOME: home });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(config);
    expect(lines[0]).toContain('mcpServers.broken.command');
  });

  it('answers a usage error with exit 2 and one line on stderr', async () => {
    const bad = await runBnity(['serve', '--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/--port must be a port number/);
    const unknown = await runBnity(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
  });

  it('mcp list prints the running servers as a table and as JSON', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { plain: { command: node, args: [TINY_SERVER] } } }));
    const env = { BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN };
    const serve = await spawnServe(['--port', '0', '--config', config], env);
    try {
      await allConnected(serve.url, 1);
      const table = await runBnity(['mcp', 'list', '--url', serve.url], env);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^NAME\s+TRANSPORT\s+STATE/m);
      expect(table.stdout).toMatch(/^plain\s+stdio\s+connected/m);
      const json = await runMain(['mcp', 'list', '--json', '--url', serve.url], env);
      expect(JSON.parse(json.stdout).servers[0]).toMatchObject({ name: 'plain', state: 'connected' });
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

describe('bnity serve refuses to start', () => {
  it('when the port is taken: exit 1, one line, and no child process started', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { plain: { command: node, args: [TINY_SERVER] } } }));
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runBnity(['serve', '--port', String(port), '--config', config], {
        BOTERNITY_HOME: home,
        BOTERNITY_ADMIN_TOKEN: TOKEN,
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/EADDRINUSE.*--port/);
      // The ledger would list any child spawned: the upstream was never started.
      const { createDb } = await import('../../src/storage/create-db.js');
      const { createProcessLedger } = await import('../../src/storage/process-ledger.js');
      const store = await createDb({ url: `file:${join(home, 'boternity.db')}` });
      expect(await createProcessLedger(store.db).list()).toEqual([]);
      await store.close();
    } finally {
      blocker.close();
    }
  });

  it('when the database cannot open (after the upstreams were spawned): exit 1, one line, no child left', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    // A marker in the child's command line finds it among all processes, whatever its pid.
    const marker = `--bnity-db-fail-${process.pid}-${Date.now()}`;
    await writeFile(config, JSON.stringify({ mcpServers: { plain: { command: node, args: [TINY_SERVER, marker] } } }));
    // A directory where the database file should be: SQLite cannot open it.
    await mkdir(join(home, 'boternity.db'));
    const result = await runBnity(['serve', '--port', '0', '--config', config], {
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: TOKEN,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const withMarker = (await readdir('/proc')).filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    expect(withMarker).toEqual([]);
  });

  it('when another instance uses the same home, leaving the first one and its children alone', async () => {
    const home = await newHome();
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: { plain: { command: node, args: [TINY_SERVER] } } }));
    const env = { BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN };
    const first = await spawnServe(['--port', '0', '--config', config], env);
    try {
      const [server] = await allConnected(first.url, 1);
      const second = await runBnity(['serve', '--port', '0', '--config', config], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`another boternity \\(pid ${first.child.pid}\\) is using ${home}`));
      expect(isAlive(server?.pid as number)).toBe(true);
      expect((await servers(first.url))[0]?.pid).toBe(server?.pid);
    } finally {
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
    }
  });
});
