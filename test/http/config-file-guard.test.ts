/**
 * Issue 17 items 1 and 2 against the real service (real file, real stdio children, real HTTP):
 * a hand edit the service refuses (nested too deep, not an object of servers, no servers at
 * all while three run, not JSON, gone) is never built on by an API edit. Every way the API
 * writes the file answers 409 `config_file_invalid` in one line naming the file and where,
 * nothing is written, the three servers keep running; once the file is fixed, edits work.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEditBase } from '../../src/config/check-edit-base.js';
import { parseConfigText } from '../../src/config/load-config.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type ErrorBody = { error: { code: string; message: string; issues?: { field: string; line?: number }[] } };

const tiny = () => ({ command: process.execPath, args: [TINY_SERVER], healthIntervalMs: 60_000 });
const GOOD = { mcpServers: { a: tiny(), b: tiny(), c: tiny() }, bots: { helper: {} } };
const DEEP = `{"mcpServers": {}, "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;

/** Every API request that writes the config file. */
const EDITS: readonly [string, string, unknown][] = [
  ['POST', '/api/servers', { name: 'newone', ...tiny() }],
  ['PUT', '/api/servers/newone', tiny()],
  ['PATCH', '/api/servers/a', { deniedTools: ['echo'] }],
  ['DELETE', '/api/servers/b', undefined],
  ['POST', '/api/servers/import', { servers: { imported: tiny() } }],
  ['POST', '/api/bots/helper/servers/a', undefined],
  ['DELETE', '/api/bots/helper?withView=true', undefined],
];

describe('an API edit never builds on a config file the service refused', { timeout: 60_000 }, () => {
  let svc: TestService;
  let sse: Awaited<ReturnType<TestService['events']>>;
  let pids: Map<string, number | null>;
  beforeAll(async () => {
    svc = await startTestService(GOOD);
    sse = await svc.events();
    const list = await waitFor(
      async () => {
        const servers = await svc.servers();
        return servers.length === 3 && servers.every((s) => s.state === 'connected') ? servers : null;
      },
      { what: 'a, b and c connected', timeoutMs: 20_000 },
    );
    pids = new Map(list.map((s) => [s.name, s.pid]));
  });
  afterAll(async () => {
    await sse?.close();
    await svc?.stop();
  });

  /** Save the file as an editor does (temp file, rename); `null` deletes it. */
  const save = async (text: string | null) => {
    if (text === null) return rm(svc.configPath);
    writeFileSync(`${svc.configPath}.swp`, text);
    renameSync(`${svc.configPath}.swp`, svc.configPath);
  };
  const send = <T>(method: string, path: string, body?: unknown) =>
    svc.api<T>(path, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  /** The next `config_error` published after event number `from`. */
  const configErrorAfter = (from: number) =>
    waitFor(() => sse.events.slice(from).find((e) => e.event === 'config_error'), { what: 'a config_error event' });
  const stillRunning = async () => {
    const list = await svc.servers();
    expect(new Map(list.map((s) => [s.name, s.pid]))).toEqual(pids);
    expect(list.every((s) => s.state === 'connected')).toBe(true);
  };

  it.each([
    ['nested 10,000 deep', DEEP, /invalid JSON at line 1, column 124: nested deeper than 100 levels/],
    ['"mcpServers": null', '{"mcpServers": null}', /mcpServers \(line 1, column 2\): expected an object of servers/],
    ['"mcpServers": []', '{"mcpServers": []}', /mcpServers \(line 1, column 2\): expected an object of servers/],
    ['null', 'null', /\(root\) \(line 1, column 1\): expected a JSON object, got null/],
    ['{} (no servers while 3 run)', '{}', /names no servers \(no "mcpServers" key\) and would stop all 3 running/],
    ['not JSON', '{"mcpServers": {', /invalid JSON at line 1, column 17: expected/],
    ['deleted', null, /cannot read config: file not found/],
  ])(
    '%s: every edit answers 409 naming the file and where; nothing is written or stopped',
    async (_what, text, where) => {
      const from = sse.events.length;
      await save(text);
      for (const [method, path, body] of EDITS) {
        const response = await send<ErrorBody>(method, path, body);
        expect({ method, path, status: response.status }).toEqual({ method, path, status: 409 });
        expect(response.body.error.code).toBe('config_file_invalid');
        expect(response.body.error.message).toMatch(
          new RegExp(`^${svc.configPath}: the file on disk is invalid, so it was not edited: `),
        );
        expect(response.body.error.message).toMatch(where);
        expect(response.body.error.message).toMatch(
          /; fix the file or revert it, then try again \(nothing was written\)$/,
        );
        expect(response.body.error.message).not.toMatch(/\n/);
      }
      if (text === null) await expect(readFile(svc.configPath, 'utf8')).rejects.toThrow(/ENOENT/);
      else expect(await readFile(svc.configPath, 'utf8')).toBe(text);
      await stillRunning();
      // The hot reload refused the same file: reported, and the last good config stays.
      await configErrorAfter(from);
      await stillRunning();
      await save(`${JSON.stringify(GOOD, null, 2)}\n`);
    },
  );

  it('after a hand edit refused ({}), an add is refused too, and works once the file is fixed', async () => {
    const from = sse.events.length;
    await save('{}');
    const refused = await configErrorAfter(from);
    expect((refused.data as { message: string }).message).toMatch(/would stop all 3 running/);
    const add = await send<ErrorBody>('POST', '/api/servers', { name: 'newone', ...tiny() });
    expect(add.status).toBe(409);
    expect(await readFile(svc.configPath, 'utf8')).toBe('{}');
    await stillRunning();
    await save(`${JSON.stringify(GOOD, null, 2)}\n`);
    const retried = await send<ErrorBody>('POST', '/api/servers', { name: 'newone', ...tiny() });
    expect(retried.status).toBe(201);
    expect(Object.keys(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers)).toEqual([
      'a',
      'b',
      'c',
      'newone',
    ]);
    expect((await send('DELETE', '/api/servers/newone')).status).toBe(200);
  });

  it('never answers 500 for any value of mcpServers on disk (property)', async () => {
    const inForce = parseConfigText(JSON.stringify(GOOD), svc.configPath, {});
    const refusedByService = (text: string) => {
      try {
        checkEditBase(text, svc.configPath, { env: process.env, inForce });
        return false;
      } catch {
        return true;
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        const text = JSON.stringify({ mcpServers: value, bots: { helper: {} } });
        // A valid object of servers would be applied by the hot reload: only refused files here.
        fc.pre(refusedByService(text));
        await save(text);
        const add = await send<ErrorBody>('POST', '/api/servers', { name: 'newone', ...tiny() });
        const patch = await send<ErrorBody>('PATCH', '/api/servers/a', { deniedTools: ['x'] });
        expect([add.status, patch.status]).toEqual([409, 409]);
        expect(await readFile(svc.configPath, 'utf8')).toBe(text);
      }),
      { numRuns: 25 },
    );
    await save(`${JSON.stringify(GOOD, null, 2)}\n`);
    await stillRunning();
  });
});
