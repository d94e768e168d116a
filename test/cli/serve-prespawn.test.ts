/**
 * The pre-spawn through `bin/bnity.js serve` (ADR 032), real processes: the child started
 * before the bundle loads is the one the server runs (one process, told in the log);
 * `BOTERNITY_PRESPAWN=0` turns it off; a `bnity serve` that fails because its home is in
 * use leaves no child behind.
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { isAlive, listDescendants, listProcesses } from '../../src/upstream/proc-stat.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { runBnity, spawnServe } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'prespawn-cli-token';
const node = process.execPath;
const tempDir = useTempDirs('bnity-prespawn-cli-');

/** Living processes with `marker` as an argument. */
const running = (marker: string): number[] =>
  listProcesses()
    .map((p) => p.pid)
    .filter((pid) => {
      try {
        return isAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    });

const connectedPid = (url: string) =>
  waitFor(
    async () => {
      const r = await fetch(`${url}/api/servers`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const [server] = ((await r.json()) as { servers: ServerStatus[] }).servers;
      return server?.state === 'connected' ? server.pid : null;
    },
    { what: 'tiny connected', timeoutMs: 30_000 },
  );

/** A home and a config of one tiny server marked by the home's path. */
async function setUp() {
  const home = await tempDir();
  const config = join(home, 'boternity.json');
  // An argument no other process has: `bnity serve --home <home>` has the home.
  const marker = join(home, 'tiny');
  await writeFile(config, JSON.stringify({ mcpServers: { tiny: { command: node, args: [TINY_SERVER, marker] } } }));
  return { home, marker, config, env: { BOTERNITY_ADMIN_TOKEN: TOKEN, BOTERNITY_LOG_LEVEL: 'info' } };
}

describe('bnity serve: pre-spawn', () => {
  it('runs the child it started before loading: one process, adopted', async () => {
    const { home, marker, config, env } = await setUp();
    const serve = await spawnServe(['--port', '0', '--config', config, '--home', home], env);
    try {
      const pid = await connectedPid(serve.url);
      expect(serve.stdout()).toContain('pre-spawned upstream adopted');
      expect(running(marker)).toEqual([pid]);
      expect(listDescendants(serve.child.pid as number)).toContain(pid);
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
    expect(running(marker)).toEqual([]);
  });

  it('BOTERNITY_PRESPAWN=0: the service spawns the server itself', async () => {
    const { home, marker, config, env } = await setUp();
    const serve = await spawnServe(['--port', '0', '--config', config, '--home', home], {
      ...env,
      BOTERNITY_PRESPAWN: '0',
    });
    try {
      const pid = await connectedPid(serve.url);
      expect(running(marker)).toEqual([pid]);
      expect(serve.stdout()).not.toContain('pre-spawned');
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });

  it('a serve that fails because the home is in use leaves no pre-spawned child', async () => {
    const { home, marker, config, env } = await setUp();
    const first = await spawnServe(['--port', '0', '--config', config, '--home', home], env);
    try {
      const firstPid = await connectedPid(first.url);
      // The second one's server writes its pid first (a shell, at once), then is the tiny server.
      const record = join(home, 'second.pids');
      const second = join(home, 'second.json');
      const other = join(home, 'second');
      const script = `echo $$ >> '${record}'; exec '${node}' '${TINY_SERVER}' '${other}'`;
      await writeFile(second, JSON.stringify({ mcpServers: { tiny: { command: 'sh', args: ['-c', script] } } }));
      const run = await runBnity(['serve', '--port', '0', '--config', second, '--home', home], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/another boternity \(pid \d+\) is using/);
      const pids = (await readFile(record, 'utf8')).trim().split('\n').map(Number);
      expect(pids).toHaveLength(1);
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
      expect(running(other)).toEqual([]);
      expect(running(marker)).toEqual([firstPid]);
    } finally {
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
    }
  });
});
