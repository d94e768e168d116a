/**
 * `npm start` (issue 11): ending npm ends the service, whether npm passes the signal on
 * (SIGTERM) or cannot (SIGKILL): it drains, releases the home and leaves no child.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { isAlive } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { waitFor } from '../support/wait-for.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'npm-start-token';

type Started = { npm: ChildProcess; home: string; output: () => string; service: number; upstream: number };
const started: Started[] = [];

/** `npm start` with a temp home, a free port and one tiny stdio upstream; resolved once it serves, or (`early`) once it holds its home. */
async function npmStart({ early = false, group = false } = {}): Promise<Started> {
  const home = await mkdtemp(join(tmpdir(), 'bnity-npm-'));
  const config = join(home, 'boternity.json');
  await writeFile(config, JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } }));
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      BOTERNITY_HOME: home,
      BOTERNITY_CONFIG: config,
      BOTERNITY_PORT: String(port),
      BOTERNITY_ADMIN_TOKEN: TOKEN,
      BOTERNITY_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, as a terminal's foreground job is: a signal to the group reaches npm and the service.
    detached: group,
  });
  let out = '';
  // The service inherits these pipes: they stay readable after npm is gone.
  npm.stdout?.on('data', (d) => {
    out += d;
  });
  npm.stderr?.on('data', (d) => {
    out += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const lockFile = join(home, 'boternity.pid');
  if (early) {
    // The home's lock is taken at the start's beginning, long before the service serves.
    const { pid } = await waitFor(
      () =>
        readFile(lockFile, 'utf8').then(
          (text) => JSON.parse(text) as { pid: number },
          () => null,
        ),
      { what: 'npm start holding its home', timeoutMs: 30_000 },
    );
    const run = { npm, home, output: () => out, service: pid, upstream: 0 };
    started.push(run);
    return run;
  }
  const upstream = await waitFor(
    async () => {
      const response = await fetch(`${url}/api/servers`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const [tiny] = ((await response.json()) as { servers: ServerStatus[] }).servers;
      return tiny?.state === 'connected' ? tiny.pid : null;
    },
    { what: `npm start serving on ${url}`, timeoutMs: 30_000 },
  );
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { pid: number };
  const run = { npm, home, output: () => out, service: lock.pid, upstream };
  started.push(run);
  return run;
}

/** The service drained: it and its child are gone, the lock is released, the log says so. */
async function expectDrained(run: Started) {
  // The lock is waited for with the processes, not read once after them: a CI run under load
  // once saw both processes gone from /proc and the lock file still there.
  const lockGone = () =>
    readFile(join(run.home, 'boternity.pid')).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
  await waitFor(async () => !isAlive(run.service) && !isAlive(run.upstream) && (await lockGone()), {
    what: 'service and upstream gone, the home lock released',
  }).catch(async (error: Error) => {
    // Say which of the three was still there, and what the service said last (a rare timeout under load).
    const state = `service ${isAlive(run.service) ? 'alive' : 'gone'}, upstream ${isAlive(run.upstream) ? 'alive' : 'gone'}, lock ${(await lockGone()) ? 'released' : 'held'}`;
    throw new Error(`${error.message} (${state}); output ends: ${run.output().slice(-1_500)}`);
  });
  expect(run.output()).toContain('boternity stopped');
}

afterEach(async () => {
  for (const run of started.splice(0)) {
    // A failed test must not leave its service behind.
    for (const pid of [run.service, run.upstream]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    if (run.npm.exitCode === null && run.npm.signalCode === null) run.npm.kill('SIGKILL');
    await rm(run.home, { recursive: true, force: true });
  }
});

describe('npm start', () => {
  it('SIGTERM to npm drains the service and leaves no process', async () => {
    const run = await npmStart();
    expect(run.npm.pid).not.toBe(run.service);
    run.npm.kill('SIGTERM');
    await expectDrained(run);
  });

  it('Ctrl-C (SIGINT to the whole group, which npm passes on again) drains the service and leaves no process', async () => {
    const run = await npmStart({ group: true });
    process.kill(-(run.npm.pid as number), 'SIGINT');
    await expectDrained(run);
    expect(run.output()).not.toContain('stopped without draining');
  });

  it('SIGKILL of npm still ends the service: it notices its launcher is gone', async () => {
    const run = await npmStart();
    run.npm.kill('SIGKILL');
    await expectDrained(run);
    expect(run.output()).toContain('launcher gone');
  });

  it('SIGKILL of npm while the service is starting ends it once started: the launcher was noted first', async () => {
    const run = await npmStart({ early: true });
    run.npm.kill('SIGKILL');
    await expectDrained(run);
    expect(run.output()).toContain('launcher gone');
  });
});
