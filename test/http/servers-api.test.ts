/**
 * `/api/servers` against the real service (real file, real stdio children, real HTTP):
 * add, replace, update, remove; every bad input answers with the field named while the
 * running config and the file stay as they were; 20 concurrent adds; a PATCH of deniedTools
 * keeps the process.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type ServerBody = { server: ServerStatus & Record<string, unknown> };
type ErrorBody = { error: { code: string; message: string; issues?: { field: string; message: string }[] } };

const tiny = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [TINY_SERVER], ...extra });

describe('/api/servers', { timeout: 60_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { base: tiny() } });
    await waitFor(async () => (await svc.server('base'))?.state === 'connected', { what: 'base connected' });
  });
  afterAll(() => svc?.stop());

  const send = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    svc.api<T>(path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const connected = (name: string) =>
    waitFor(
      async () => {
        const server = await svc.server(name);
        return server?.state === 'connected' ? server : null;
      },
      { what: `${name} connected` },
    );

  it('adds a server (201, the new entry), applies it at once and writes it to the file', async () => {
    const added = await send<ServerBody>('POST', '/api/servers', { name: 'added', ...tiny() });
    expect(added.status).toBe(201);
    expect(added.body.server).toMatchObject({ name: 'added', command: process.execPath, transport: 'stdio' });
    expect(['connecting', 'connected']).toContain(added.body.server.state);
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.added).toEqual(tiny());
    await connected('added');
    const tools = await svc.api<{ tools: { name: string }[] }>('/api/servers/added/tools');
    expect(tools.body.tools.map((t) => t.name)).toEqual(['echo']);
  });

  describe('refuses bad input with the field named, changing nothing', () => {
    it.each([
      ['a name in use (409)', { name: 'base', ...tiny() }, 409, 'conflict', /server "base" already exists/],
      ['an unknown preset', { name: 'p', preset: 'nope' }, 400, 'bad_request', /^unknown preset "nope" \(known: /],
      [
        'a path in the name',
        { name: '../etc', ...tiny() },
        400,
        'bad_request',
        /^invalid request body: name: invalid server name/,
      ],
      ['a space in the name', { name: 'a b', ...tiny() }, 400, 'bad_request', /name: invalid server name/],
      [
        'an unknown field',
        { name: 'u', ...tiny(), colour: 'red' },
        400,
        'bad_request',
        /^invalid request body: colour: unknown field$/,
      ],
      [
        'a wrong type',
        { name: 'w', command: 'node', args: 'x.js' },
        400,
        'bad_request',
        /^invalid request body: args: /,
      ],
      [
        'neither command nor url',
        { name: 'n', env: { A: '1' } },
        400,
        'bad_request',
        /command: needs "command" \(stdio\), "url" \(http\/sse\) or "preset"/,
      ],
      [
        'a value the config refuses',
        { name: 'f', url: 'ftp://x' },
        400,
        'config_invalid',
        /invalid config: mcpServers\.f\.url: must be an http:\/\/ or https:\/\/ URL$/,
      ],
      [
        'a tool override the config refuses',
        { name: 'o', ...tiny(), toolOverrides: { echo: { name: 'has space' } } },
        400,
        'config_invalid',
        /invalid config: mcpServers\.o\.toolOverrides\.echo\.name: a tool name is 1 to 64 letters, digits, _ \. or -$/,
      ],
      [
        'an unknown field in timeouts',
        { name: 't', ...tiny(), timeouts: { callMs: 10, perToll: {} } },
        400,
        'bad_request',
        /^invalid request body: timeouts\.perToll: unknown field$/,
      ],
      [
        'a preset missing its credential',
        { name: 'gh', preset: 'github' },
        400,
        'bad_request',
        /^preset github needs a credential: bnity mcp credential set github-token, then --credential-key github-token$/,
      ],
      [
        'a preset missing its arguments',
        { name: 'fs2', preset: 'filesystem' },
        400,
        'bad_request',
        /^preset filesystem needs arguments/,
      ],
      [
        'a NUL byte in command',
        { name: 'z', command: `${process.execPath}\u0000` },
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.command: must not contain a NUL character \(\\u0000\)$/,
      ],
      [
        'a NUL byte in an argument',
        tiny({ name: 'z', args: [TINY_SERVER, 'a\u0000b'] }),
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.args\[1\]: must not contain a NUL character/,
      ],
      [
        'a NUL byte in an env value',
        tiny({ name: 'z', env: { A: '\u0000' } }),
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.env\.A: must not contain a NUL character/,
      ],
      [
        'a NUL byte in an env name',
        tiny({ name: 'z', env: { 'A\u0000': '1' } }),
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.env\["A\\u0000"\]: invalid name: must not contain a NUL character/,
      ],
      [
        'a NUL byte in cwd',
        tiny({ name: 'z', cwd: '/tmp\u0000' }),
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.cwd: must not contain a NUL character/,
      ],
      [
        'a line break in a header value',
        { name: 'z', url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': 'a\r\nEvil: 1' } },
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.headers\.X-Key: must not contain NUL, CR or LF$/,
      ],
      [
        'a header name fetch refuses',
        { name: 'z', url: 'http://127.0.0.1:1/mcp', headers: { 'X Key': '1' } },
        400,
        'config_invalid',
        /invalid config: mcpServers\.z\.headers\["X Key"\]: invalid name: not a valid HTTP header name$/,
      ],
      ['a body that is not JSON', '{"name": "x", ', 400, 'bad_request', /^request body is not valid JSON$/],
      [
        'a body over the limit (413)',
        { name: 'big', ...tiny(), env: { BIG: 'x'.repeat(1024 * 1024) } },
        413,
        'payload_too_large',
        /request body over 1048576 bytes/,
      ],
    ])('%s', async (_what, body, status, code, message) => {
      const before = await readFile(svc.configPath, 'utf8');
      const servers = (await svc.servers()).map((s) => s.name);
      const response = await send<ErrorBody>('POST', '/api/servers', body);
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.message).toMatch(message);
      expect(await readFile(svc.configPath, 'utf8')).toBe(before);
      expect((await svc.servers()).map((s) => s.name)).toEqual(servers);
    });

    it('refuses a NUL byte set by PATCH or PUT, naming the field', async () => {
      const before = await readFile(svc.configPath, 'utf8');
      const patch = await send<ErrorBody>('PATCH', '/api/servers/base', { args: [TINY_SERVER, '\u0000'] });
      expect(patch.status).toBe(400);
      expect(patch.body.error.issues).toEqual([
        { field: 'mcpServers.base.args[1]', server: 'base', message: 'must not contain a NUL character (\\u0000)' },
      ]);
      const put = await send<ErrorBody>('PUT', '/api/servers/base', tiny({ env: { HOME: '\u0000' } }));
      expect(put.status).toBe(400);
      expect(put.body.error.issues?.[0]?.field).toBe('mcpServers.base.env.HOME');
      expect(await readFile(svc.configPath, 'utf8')).toBe(before);
    });

    it('names the field in issues', async () => {
      const response = await send<ErrorBody>('POST', '/api/servers', { name: 'w', command: 'node', args: [1] });
      expect(response.body.error.issues).toEqual([{ field: 'args.0', message: expect.any(String) }]);
      const config = await send<ErrorBody>('POST', '/api/servers', { name: 'f', url: 'ftp://x' });
      expect(config.body.error.issues).toEqual([
        { field: 'mcpServers.f.url', server: 'f', message: 'must be an http:// or https:// URL' },
      ]);
    });

    it('refuses a body that is not declared JSON (415) and an unknown server (404)', async () => {
      const text = await svc.api<ErrorBody>('/api/servers', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'name=x',
      });
      expect(text.status).toBe(415);
      expect(text.body.error.code).toBe('bad_request');
      for (const [method, body] of [
        ['PATCH', { enabled: false }],
        ['DELETE', undefined],
        ['GET', undefined],
      ] as const) {
        const missing = await send<ErrorBody>(method, '/api/servers/ghost', body);
        expect(missing.status).toBe(404);
        expect(missing.body.error).toEqual({ code: 'unknown_server', message: 'server "ghost" is not configured' });
      }
      const traversal = await send<ErrorBody>('PUT', '/api/servers/..%2Fetc', tiny());
      expect(traversal.status).toBe(400);
    });
  });

  it('replaces (PUT), updates (PATCH, null removes a key) and removes (DELETE) servers', async () => {
    // A PUT that creates answers 200 too (SPEC §7: PUT → 200 with the entry).
    const created = await send<ServerBody>('PUT', '/api/servers/putme', tiny({ enabled: false }));
    expect(created.status).toBe(200);
    expect(created.body.server).toMatchObject({ name: 'putme', state: 'disabled', enabled: false });
    const replaced = await send<ServerBody>('PUT', '/api/servers/putme', tiny());
    expect(replaced.status).toBe(200);
    expect(replaced.body.server.enabled).toBe(true);
    const patched = await send<ServerBody>('PATCH', '/api/servers/putme', { enabled: false, args: null });
    expect(patched.status).toBe(200);
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.putme).toEqual({
      command: process.execPath,
      enabled: false,
    });
    const removed = await send<{ removed: string } & ServerBody>('DELETE', '/api/servers/putme');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: 'putme', server: { name: 'putme', state: 'disabled' } });
    expect(await svc.server('putme')).toBeUndefined();
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.putme).toBeUndefined();
  });

  it('a PATCH that sends env and headers back as GET showed them (********) keeps the secrets in the file', async () => {
    const ref = `$${'{'}secret:gh}`;
    const entry = tiny({ enabled: false, env: { API_KEY: 'real-key', GH: ref } });
    await send('PUT', '/api/servers/masked', entry);
    const shown = (await send<ServerBody>('GET', '/api/servers/masked')).body.server;
    expect(shown.env).toEqual({ API_KEY: '********', GH: ref });
    const patched = await send<ServerBody>('PATCH', '/api/servers/masked', {
      env: { ...(shown.env as Record<string, string>), MODE: 'fast', GONE: '********' },
    });
    expect(patched.status).toBe(200);
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.masked.env).toEqual({
      API_KEY: 'real-key',
      GH: ref,
      MODE: 'fast',
    });
    await send('PUT', '/api/servers/remote', { url: 'http://127.0.0.1:9/mcp', enabled: false, headers: { A: 's' } });
    await send('PATCH', '/api/servers/remote', { headers: { A: '********', B: 'b' } });
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.remote.headers).toEqual({ A: 's', B: 'b' });
  });

  it('takes timeouts and toolOverrides (SPEC D2, D3) by POST, PUT and PATCH; a GET then PUT keeps them', async () => {
    const timeouts = { callMs: 20_000, perTool: { echo: 5_000 }, resetOnProgress: true };
    const toolOverrides = { echo: { name: 'say', description: 'Says it back.' } };
    const added = await send<ServerBody>('POST', '/api/servers', { name: 'tuned', ...tiny(), timeouts, toolOverrides });
    expect(added.status).toBe(201);
    expect(added.body.server).toMatchObject({ timeouts, toolOverrides });
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.tuned).toEqual({
      ...tiny(),
      timeouts,
      toolOverrides,
    });
    const before = await connected('tuned');
    // What GET shows, sent back whole, changes nothing.
    const { name: _name, ...shown } = (await send<ServerBody>('GET', '/api/servers/tuned')).body.server;
    const entry = Object.fromEntries(
      Object.entries(shown).filter(([key]) => key in tiny() || key === 'timeouts' || key === 'toolOverrides'),
    );
    const put = await send<ServerBody>('PUT', '/api/servers/tuned', entry);
    expect(put.status).toBe(200);
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.tuned).toEqual({
      ...tiny(),
      timeouts,
      toolOverrides,
    });
    // A PATCH of the overrides alone applies without a restart.
    const patched = await send<ServerBody>('PATCH', '/api/servers/tuned', {
      toolOverrides: { echo: { hidden: true } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.server).toMatchObject({ state: 'connected', pid: before.pid });
    expect(JSON.parse(await readFile(svc.configPath, 'utf8')).mcpServers.tuned.toolOverrides).toEqual({
      echo: { hidden: true },
    });
    await send('DELETE', '/api/servers/tuned');
  });

  it('changes the view without restarting the process when a PATCH touches only deniedTools', async () => {
    await send('POST', '/api/servers', { name: 'view', ...tiny() });
    const before = await connected('view');
    const call = () =>
      send<{ result?: unknown } & Partial<ErrorBody>>('POST', '/api/servers/view/tools/echo/call', {
        arguments: { text: 'hi' },
      });
    expect((await call()).body.result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const patched = await send<ServerBody>('PATCH', '/api/servers/view', { deniedTools: ['echo'] });
    expect(patched.body.server).toMatchObject({ state: 'connected', pid: before.pid, deniedTools: ['echo'] });
    const denied = await call();
    expect(denied.status).toBe(404);
    expect(denied.body.error?.message).toMatch(/tool "echo" of server "view" is not available/);
    expect((await svc.server('view'))?.pid).toBe(before.pid);
  });

  it('keeps all of 20 concurrent adds: a valid file, 20 new servers, 20 running actors', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `many-${i}`);
    const answers = await Promise.all(
      names.map((name) => send('POST', '/api/servers', { name, ...tiny({ enabled: false }) })),
    );
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 201));
    const file = JSON.parse(await readFile(svc.configPath, 'utf8'));
    expect(Object.keys(file.mcpServers)).toEqual(expect.arrayContaining(names));
    const running = (await svc.servers()).filter((s) => s.name.startsWith('many-'));
    expect(running.map((s) => s.name).sort()).toEqual([...names].sort());
    expect(running.every((s) => s.state === 'disabled')).toBe(true);
  });
});
