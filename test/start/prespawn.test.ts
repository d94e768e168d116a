// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` and `${secret:NAME}` are config syntax under test, not templates
/**
 * The pre-spawn (ADR 032) with real child processes: a child started before the service is
 * adopted by its server's first connect (one process, its early stderr in the server's log);
 * an entry with interpolation is never pre-spawned; a child whose spawn the service would
 * make differently is ended, and so is every child when the start fails (home in use).
 */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { type Service, startService } from '../../src/main.js';
import { plainStdio, prespawn, serveFlags } from '../../src/start/prespawn.js';
import type { Prespawned } from '../../src/upstream/prespawned.js';
import { isAlive, listProcesses, readStartTime } from '../../src/upstream/proc-stat.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const tempDir = useTempDirs('bnity-prespawn-');
const env: NodeJS.ProcessEnv = { ...process.env, BOTERNITY_ADMIN_TOKEN: 'prespawn-token', PRESPAWN_WORD: 'b' };
delete env.DATABASE_URL;
delete env.BOTERNITY_PRESPAWN;

/** Living processes with `marker` as an argument (each test's home: the tiny servers of this test). */
const running = (marker: string): number[] =>
  listProcesses()
    .filter((p) => isAlive(p.pid))
    .map((p) => p.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    });

/**
 * The pre-spawned children of this test once they have exec'd: a child just forked still
 * carries its parent's command line, without the marker, for a moment.
 */
const spawnedEarly = (marker: string): Promise<number[]> =>
  waitFor(
    () => {
      const pids = running(marker);
      return pids.length > 0 ? pids : null;
    },
    { what: 'the pre-spawned child to run its command' },
  );

/** A home with a config of one server `tiny`: the fixture, the home (a marker), then `args`. */
async function setUp(args: string[], extra: Record<string, unknown> = {}) {
  const home = await tempDir();
  const config = join(home, 'boternity.json');
  const write = (more: string[]) =>
    writeFile(
      config,
      JSON.stringify({ mcpServers: { tiny: { command: node, args: [TINY_SERVER, home, ...more], ...extra } } }),
    );
  await write(args);
  const start = (prespawned: Prespawned | null): Promise<Service> =>
    startService({ home, config, port: 0, env, log: pino({ level: 'silent' }), ...(prespawned ? { prespawned } : {}) });
  const early = () => prespawn({ argv: ['serve', '--config', config, '--home', home], env });
  return { home, write, start, early };
}

const connected = (service: Service) =>
  waitFor(() => service.hub.getServer('tiny').state === 'connected', { what: 'tiny connected', timeoutMs: 30_000 });

/** The pid the server's stderr log says its (only) process has. */
const startedPid = (service: Service): number => {
  const pids = service.hub.stderr('tiny').flatMap((line) => /^\[boternity\] started pid (\d+)$/.exec(line)?.[1] ?? []);
  expect(pids).toHaveLength(1);
  return Number(pids[0]);
};

describe('pre-spawn', () => {
  it('adopts the child started early: one process, its early stderr kept in the server log', async () => {
    const { home, start, early } = await setUp([], { env: { TINY_STDERR_LINES: '2' } });
    const pool = await early();
    expect(pool?.waiting()).toEqual(['tiny']);
    const [child, ...more] = await spawnedEarly(home);
    expect(more).toEqual([]);
    const service = await start(pool);
    try {
      await connected(service);
      expect(pool?.waiting()).toEqual([]);
      expect(running(home)).toEqual([child]);
      expect(startedPid(service)).toBe(child);
      const lines = service.hub.stderr('tiny');
      expect(lines.slice(lines.indexOf(`[boternity] started pid ${child}`))).toEqual(
        expect.arrayContaining(['stderr line 1', 'stderr line 2']),
      );
    } finally {
      await service.stop();
    }
    expect(running(home)).toEqual([]);
  });

  it('does not pre-spawn an entry with ${env:…}: the service spawns it, once', async () => {
    const { home, start, early } = await setUp(['${env:PRESPAWN_WORD}']);
    expect(await early()).toBeNull();
    expect(running(home)).toEqual([]);
    const service = await start(null);
    try {
      await connected(service);
      expect(running(home)).toEqual([startedPid(service)]);
    } finally {
      await service.stop();
    }
  });

  it('does not pre-spawn in cluster mode: the database, not the file, says which servers run', async () => {
    const { home, early } = await setUp([]);
    const cluster = { ...env, BOTERNITY_DATABASE_URL: 'postgres://u@127.0.0.1:1/db' };
    expect(
      await prespawn({ argv: ['serve', '--home', home, '--config', join(home, 'boternity.json')], env: cluster }),
    ).toBeNull();
    expect(running(home)).toEqual([]);
    // The file's own database.url counts as well; without either, the same file is pre-spawned.
    const config = join(home, 'boternity.json');
    const raw = JSON.parse(await readFile(config, 'utf8')) as Record<string, unknown>;
    await writeFile(config, JSON.stringify({ ...raw, database: { url: 'postgres://u@127.0.0.1:1/db' } }));
    expect(await early()).toBeNull();
    await writeFile(config, JSON.stringify(raw));
    const pool = await early();
    expect(pool?.waiting()).toEqual(['tiny']);
    await pool?.endRest();
  });

  it('ends a child the service would spawn differently (the config changed), and spawns its own', async () => {
    const { home, write, start, early } = await setUp(['a']);
    const pool = await early();
    const [child] = await spawnedEarly(home);
    expect(child).toBeDefined();
    await write(['b']);
    const service = await start(pool);
    try {
      await connected(service);
      const own = startedPid(service);
      expect(own).not.toBe(child);
      await waitFor(() => !isAlive(child as number), { what: 'the pre-spawned child ended' });
      expect(running(home)).toEqual([own]);
      expect(pool?.waiting()).toEqual([]);
    } finally {
      await service.stop();
    }
  });

  it('ends the children when the start fails (home in use): nothing is left running', async () => {
    const { home, start, early } = await setUp([]);
    // The home's lock names another living process: this start must fail.
    const owner = process.ppid;
    await writeFile(
      join(home, 'boternity.pid'),
      `${JSON.stringify({ pid: owner, startTime: readStartTime(owner) })}\n`,
    );
    const pool = await early();
    const [child] = await spawnedEarly(home);
    expect(child).toBeDefined();
    await expect(start(pool)).rejects.toThrow(/another boternity .* is using/);
    expect(isAlive(child as number)).toBe(false);
    expect(running(home)).toEqual([]);
  });
});

describe('what is pre-spawned', () => {
  it('only `bnity serve` with its own flags', () => {
    expect(serveFlags(['serve'])).toEqual({});
    expect(serveFlags(['serve', '--config', 'c.json', '--home=h', '--port', '0', '--host', '::'])).toEqual({
      config: 'c.json',
      home: 'h',
    });
    for (const argv of [[], ['mcp', 'list'], ['serve', '--help'], ['serve', '--port'], ['serve', '--config', '--home']])
      expect(serveFlags(argv)).toBeNull();
  });

  it('only a plain, enabled stdio entry without interpolation', () => {
    const plain = { command: 'node', args: ['x.mjs'], env: { A: '1' }, cwd: '/tmp', requestTimeoutMs: 5 };
    expect(plainStdio(plain)).toEqual({ command: 'node', args: ['x.mjs'], env: { A: '1' }, cwd: '/tmp' });
    expect(plainStdio({ command: 'node' })).toEqual({ command: 'node', args: [], env: {} });
    for (const entry of [
      { ...plain, enabled: false },
      { ...plain, disabled: true },
      { ...plain, scope: 'session' },
      { ...plain, preset: 'memory' },
      { ...plain, credentialKey: 'k' },
      { ...plain, envFile: '.env' },
      { ...plain, unknownKey: 1 },
      { ...plain, type: 'http' },
      { url: 'http://127.0.0.1:1/mcp' },
      { ...plain, args: ['${env:HOME}'] },
      { ...plain, env: { A: '${secret:token}' } },
      { ...plain, command: '$${env:X}' },
      { ...plain, args: 'x.mjs' },
      { ...plain, command: '' },
    ])
      expect(plainStdio(entry)).toBeNull();
  });
});
