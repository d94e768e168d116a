/**
 * The `bnity mcp` commands that read or steer a running service, against one real service:
 * status, tools, connect, disconnect, logs (and --follow), events, presets; and the errors of
 * an unreachable URL, a refused token and an unknown server. What follows a stream until
 * SIGINT, and the refused token's exit, are real child processes; the rest run in this
 * process (`main`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { runMain } from '../support/run-main.js';
import { runBnity, spawnBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

let svc: TestService;
let env: NodeJS.ProcessEnv;
const bnity = (...args: string[]) => runMain(args, env);
const json = async <T>(...args: string[]): Promise<T> => {
  const result = await bnity(...args, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
};

beforeAll(async () => {
  svc = await startTestService({
    mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER], env: { TINY_STDERR_LINES: '3' } } },
  });
  env = { BOTERNITY_ADMIN_TOKEN: TEST_TOKEN, BOTERNITY_URL: svc.service.url, BOTERNITY_HOME: svc.home };
  await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
});
afterAll(() => svc?.stop());

describe('bnity mcp commands with a running service', () => {
  it('status NAME shows one server in detail with its last stderr lines; tools lists its tools', async () => {
    const table = await bnity('mcp', 'status', 'tiny', '--lines', '2');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^state\s+connected since /m);
    expect(table.stdout).toMatch(/^offers\s+1 tools, 0 resources, 0 templates, 0 prompts$/m);
    expect(table.stdout).toMatch(/^pid\s+\d+$/m);
    expect(table.stdout).toContain('stderr (last 2 lines):\n  stderr line 2\n  stderr line 3\n');
    const detail = await json<{ server: ServerStatus; stderr: string[] }>('mcp', 'status', 'tiny');
    expect(detail.server).toMatchObject({ name: 'tiny', state: 'connected', toolCount: 1, attempt: 0 });
    // The service marks each start of the process in its stderr log.
    expect(detail.stderr).toEqual([
      expect.stringMatching(/^\[boternity\] started pid \d+$/),
      'stderr line 1',
      'stderr line 2',
      'stderr line 3',
    ]);

    const tools = await bnity('mcp', 'tools', 'tiny');
    expect(tools.stdout).toMatch(/^TOOL\s+DESCRIPTION\necho\s+Returns its text argument\n$/);
    const listed = await json<{ tools: { name: string; inputSchema: unknown }[] }>('mcp', 'tools', 'tiny');
    expect(listed.tools[0]).toMatchObject({ name: 'echo', inputSchema: { required: ['text'] } });
  });

  it('disconnect and connect steer the server; connect waits for its first state', async () => {
    const off = await json<{ server: ServerStatus }>('mcp', 'disconnect', 'tiny');
    expect(off.server).toMatchObject({ state: 'disabled', disabledReason: 'manual' });
    const on = await bnity('mcp', 'connect', 'tiny');
    expect(on).toMatchObject({ code: 0, stdout: 'tiny: connected, 1 tool\n' });
    expect((await svc.server('tiny'))?.state).toBe('connected');
  });

  it('events follows the stream one line an event (--json: JSON lines) until SIGINT', async () => {
    const follower = spawnBnity(['mcp', 'events', '--server', 'tiny', '--json'], env);
    const people = spawnBnity(['mcp', 'events'], env);
    await waitFor(() => follower.stdout().includes('"snapshot"') && people.stdout().includes('snapshot'), {
      what: 'the snapshots',
    });
    await bnity('mcp', 'disconnect', 'tiny');
    await bnity('mcp', 'connect', 'tiny');
    const lines = await waitFor(
      () => {
        const parsed = follower
          .stdout()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { event: string; data: { server?: string } });
        return parsed.some((e) => e.event === 'connected') ? parsed : null;
      },
      { what: 'a connected event' },
    );
    expect(lines.map((e) => e.event)).toEqual(expect.arrayContaining(['snapshot', 'disabled', 'connecting']));
    expect(lines.filter((e) => e.event !== 'snapshot').every((e) => e.data.server === 'tiny')).toBe(true);
    await waitFor(() => /^\d\d:\d\d:\d\d {2}tiny {2}connected {2}.*toolCount=1/m.test(people.stdout()), {
      what: 'a line for people',
    });
    follower.child.kill('SIGINT');
    people.child.kill('SIGINT');
    expect(await follower.exited).toBe(0);
    expect(await people.exited).toBe(0);
  });

  it("events --bot follows one bot: a registry bot's own events, not another bot's; an unknown bot is one line", async () => {
    expect((await bnity('bot', 'create', 'watched', '--name', 'Watched')).code).toBe(0);
    const follower = spawnBnity(['mcp', 'events', '--bot', 'watched'], env);
    await waitFor(() => follower.stdout().includes('snapshot'), { what: 'the snapshot' });
    expect((await bnity('bot', 'create', 'other', '--name', 'Other')).code).toBe(0);
    expect((await bnity('bot', 'update', 'watched', '--description', 'now watched')).code).toBe(0);
    await waitFor(() => /^\d\d:\d\d:\d\d {2}- {2}bot_updated {2}.*bot=watched/m.test(follower.stdout()), {
      what: 'the bot_updated line',
    });
    follower.child.kill('SIGINT');
    expect(await follower.exited).toBe(0);
    expect(follower.stdout()).not.toContain('bot=other');
    const unknown = await bnity('mcp', 'events', '--bot', 'nosuch');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^bnity: .*bot "nosuch" does not exist.*\n$/);
    expect(unknown.stderr.split('\n')).toHaveLength(2);
  });

  it('logs prints the last lines; --follow prints new ones as they come, until SIGINT', async () => {
    const last = await bnity('mcp', 'logs', 'tiny', '--lines', '1');
    expect(last).toMatchObject({ code: 0, stdout: 'stderr line 3\n' });
    const follow = spawnBnity(['mcp', 'logs', 'tiny', '--follow', '--lines', '1'], env);
    await waitFor(() => follow.stdout() === 'stderr line 3\n', { what: 'the first line' });
    // A restart writes its mark and three more lines: --follow prints exactly those.
    await bnity('mcp', 'disconnect', 'tiny');
    await bnity('mcp', 'connect', 'tiny');
    await waitFor(() => follow.stdout().endsWith('stderr line 1\nstderr line 2\nstderr line 3\n'), {
      what: 'the new lines',
    });
    follow.child.kill('SIGINT');
    expect(await follow.exited).toBe(0);
    expect(follow.stdout()).toMatch(
      /^stderr line 3\n\[boternity\] started pid \d+\nstderr line 1\nstderr line 2\nstderr line 3\n$/,
    );
  });

  it('logs --json gives the lines as JSON; with --follow one JSON object a line', async () => {
    const last = await bnity('mcp', 'logs', 'tiny', '--lines', '2', '--json');
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout)).toEqual({ server: 'tiny', lines: ['stderr line 2', 'stderr line 3'] });
    const follow = spawnBnity(['mcp', 'logs', 'tiny', '--follow', '--lines', '1', '--json'], env);
    await waitFor(() => follow.stdout() === '{"server":"tiny","line":"stderr line 3"}\n', { what: 'the first line' });
    follow.child.kill('SIGINT');
    expect(await follow.exited).toBe(0);
  });

  it('says what went wrong in one line: unknown server, refused token, nothing at the URL', async () => {
    const ghost = await bnity('mcp', 'status', 'ghost');
    expect(ghost).toMatchObject({ code: 1, stderr: 'bnity: server "ghost" is not configured\n', stdout: '' });
    const refused = await runBnity(['mcp', 'list'], { ...env, BOTERNITY_ADMIN_TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `bnity: ${svc.service.url} refused the admin token: set BOTERNITY_ADMIN_TOKEN, or --home to the service's data directory (its admin-token file)\n`,
    );
    const nowhere = await bnity('mcp', 'list', '--url', 'http://127.0.0.1:1');
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toBe(
      "bnity: nothing answers at http://127.0.0.1:1 (bad port): start the service with 'bnity serve', or give its address with --url or BOTERNITY_URL\n",
    );
    const tools = await bnity('mcp', 'tools', 'tiny', '--url', 'http://127.0.0.1:1');
    expect(tools.code).toBe(1);
    expect(tools.stderr).toMatch(/^bnity: listing the tools of "tiny" needs the running service: nothing answers at/);
  });
});
