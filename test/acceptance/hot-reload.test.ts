/**
 * Issue 2 acceptance: config file edits reconcile only the difference, a broken file is
 * refused while the last good config stays, and a removed server leaves no process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { isAlive, listDescendants } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const tiny = (extra: object = {}) => ({ command: node, args: [TINY_SERVER], healthIntervalMs: 60_000, ...extra });
// A launcher that forks: the real server plus a background grandchild that never exits.
const forking = () => ({
  command: 'sh',
  args: ['-c', `'${node}' -e 'setInterval(() => {}, 1000)' & exec '${node}' '${TINY_SERVER}'`],
  healthIntervalMs: 60_000,
});

const connected = (svc: TestService, names: string[]) =>
  waitFor(
    async () => {
      const list = await svc.servers();
      return names.every((n) => list.find((s) => s.name === n)?.state === 'connected') ? list : null;
    },
    { what: `${names.join(', ')} connected`, timeoutMs: 20_000 },
  );

describe('hot reload of the config file', () => {
  let svc: TestService;
  let sse: Awaited<ReturnType<TestService['events']>>;
  const base = { a: tiny(), b: tiny(), wrapped: forking() };

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: base });
    sse = await svc.events('?lastEventId=0');
    await connected(svc, ['a', 'b', 'wrapped']);
  }, 60_000);
  afterAll(async () => {
    await sse?.close();
    await svc?.stop();
  });

  const pids = async () => new Map((await svc.servers()).map((s) => [s.name, s.pid]));
  const countOf = (type: string, server: string) =>
    sse.events.filter((e) => e.event === type && (e.data as { server: string }).server === server).length;

  it('removing a server stops only that actor and leaves none of its processes', async () => {
    const before = await pids();
    const wrappedPid = before.get('wrapped') as number;
    const tree = [wrappedPid, ...listDescendants(wrappedPid)];
    expect(tree.length).toBeGreaterThanOrEqual(2);
    await svc.writeConfig({ mcpServers: { a: base.a, b: base.b } });
    await sse.next((e) => e.event === 'removed' && (e.data as { server: string }).server === 'wrapped');
    await waitFor(() => tree.every((pid) => !isAlive(pid)), { what: 'the whole tree to end', timeoutMs: 10_000 });
    const after = await pids();
    expect([...after.keys()]).toEqual(['a', 'b']);
    expect(after.get('a')).toBe(before.get('a'));
    expect(after.get('b')).toBe(before.get('b'));
  });

  it('adding a server starts only that one', async () => {
    const before = await pids();
    await svc.writeConfig({ mcpServers: { a: base.a, b: base.b, c: tiny() } });
    await connected(svc, ['c']);
    const after = await pids();
    expect(after.get('a')).toBe(before.get('a'));
    expect(after.get('b')).toBe(before.get('b'));
    expect(countOf('connecting', 'a')).toBe(1);
  });

  it('changing a server reconnects only that one', async () => {
    const before = await pids();
    await svc.writeConfig({ mcpServers: { a: base.a, b: tiny({ env: { CHANGED: '1' } }), c: tiny() } });
    await waitFor(
      async () => {
        const s = await svc.server('b');
        return s?.state === 'connected' && s.pid !== before.get('b');
      },
      { what: 'b reconnected with its new config' },
    );
    const after = await pids();
    expect(after.get('a')).toBe(before.get('a'));
    expect(after.get('c')).toBe(before.get('c'));
    expect(isAlive(before.get('b') as number)).toBe(false);
    expect(countOf('connected', 'b')).toBe(2);
    expect(countOf('connected', 'a')).toBe(1);
  });

  it.each([
    ['bad JSON', '{ "mcpServers": { "a": ', /line 1, column/],
    [
      'an unknown transport',
      JSON.stringify({ mcpServers: { a: { type: 'websocket', url: 'ws://127.0.0.1:1' } } }),
      /mcpServers\.a\.type: unknown transport "websocket"/,
    ],
    ['a missing command', JSON.stringify({ mcpServers: { a: { args: ['x'] } } }), /mcpServers\.a.*"command".*"url"/],
    [
      'wrong types',
      JSON.stringify({ mcpServers: { a: { command: 'x', args: 'not-a-list', enabled: 'yes' } } }),
      /(?=[\s\S]*mcpServers\.a\.args: expected an array)(?=[\s\S]*mcpServers\.a\.enabled: expected a boolean)/,
    ],
  ])('refuses %s, keeps the last good config and emits config_error', async (_label, text, message) => {
    const before = await svc.servers();
    const seen = sse.events.filter((e) => e.event === 'config_error').length;
    const { writeFile } = await import('node:fs/promises');
    await writeFile(svc.configPath, text);
    const error = await sse.next(
      (e) => e.event === 'config_error' && sse.events.filter((x) => x.event === 'config_error').indexOf(e) >= seen,
    );
    const data = error.data as { message: string; file: string };
    expect(data.file).toBe(svc.configPath);
    expect(data.message).toContain(svc.configPath);
    expect(data.message).toMatch(message);
    const after = await svc.servers();
    expect(after.map((s: ServerStatus) => [s.name, s.state, s.pid])).toEqual(
      before.map((s) => [s.name, s.state, s.pid]),
    );
  });

  it('applies a fixed file after a broken one', async () => {
    await svc.writeConfig({ mcpServers: { a: base.a } });
    await waitFor(async () => (await svc.servers()).map((s) => s.name).join() === 'a', { what: 'only a left' });
  });
});
