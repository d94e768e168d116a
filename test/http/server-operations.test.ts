/**
 * Per-server operations and the read-only routes against the real service: test-tool
 * (sanitized and audited like an agent's call), what a server lists, its stderr with
 * `?tail=`, the presets, the masked config, import (twice) and the token routes' checks.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../support/everything.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type ErrorBody = { error: { code: string; message: string } };
const SECRET = 'sk-live-0123456789abcdef';

describe('server operations', { timeout: 60_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    process.env.OPS_TEST_SECRET = SECRET;
    svc = await startTestService({
      mcpServers: {
        tiny: {
          command: process.execPath,
          args: [TINY_SERVER],
          env: { TINY_STDERR_LINES: '5', API_KEY: '${env:OPS_TEST_SECRET}' },
        },
        everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
        remote: {
          url: 'http://user:hunter2@127.0.0.1:9/mcp?api_key=abc&x=1',
          headers: { Authorization: 'Bearer abc' },
          enabled: false,
        },
      },
    });
    await waitFor(async () => (await svc.servers()).filter((s) => s.state === 'connected').length === 2, {
      what: 'tiny and everything connected',
    });
  });
  afterAll(async () => {
    delete process.env.OPS_TEST_SECRET;
    await svc?.stop();
  });
  const post = <T>(path: string, body: unknown) =>
    svc.api<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('calls a tool through the gateway: the result as an agent gets it, and an audit row', async () => {
    const call = await post<{ result: unknown }>('/api/servers/tiny/tools/echo/call', { arguments: { text: 'hi' } });
    expect(call).toEqual({
      status: 200,
      body: { result: { content: [{ type: 'text', text: 'hi' }] }, durationMs: expect.any(Number) },
    });
    const audit = await waitFor(
      async () => {
        const rows = (await svc.api<{ entries: Record<string, unknown>[] }>('/api/audit?tool=echo&server=tiny')).body;
        return rows.entries.find((row) => row.eventType === 'tool_call');
      },
      { what: 'the audit row' },
    );
    expect(audit).toMatchObject({ serverName: 'tiny', toolName: 'echo', clientId: 'admin', success: true });
    const unknown = await post<ErrorBody>('/api/servers/tiny/tools/nope/call', { arguments: {} });
    expect(unknown.status).toBe(404);
    const down = await post<ErrorBody>('/api/servers/remote/tools/x/call', {});
    expect(down.status).toBe(503);
    expect(down.body.error).toEqual({ code: 'upstream_unavailable', message: 'server "remote" is disabled' });
  });

  it('adds a preset with its arguments, and its tools answer through test-tool', async () => {
    const added = await post<{ server: Record<string, unknown> }>('/api/servers', {
      name: 'fs',
      preset: 'filesystem',
      args: [svc.home],
    });
    expect(added.status).toBe(201);
    expect(added.body.server).toMatchObject({ name: 'fs', preset: 'filesystem', transport: 'stdio' });
    await waitFor(async () => (await svc.server('fs'))?.state === 'connected', { what: 'fs connected' });
    const listing = await post<{ result: { content: { text: string }[] } }>(
      '/api/servers/fs/tools/list_directory/call',
      {
        arguments: { path: svc.home },
      },
    );
    expect(listing.status).toBe(200);
    expect(listing.body.result.content[0]?.text).toContain('boternity.json');
  });

  it('lists what a connected server offers, and says when it is not connected', async () => {
    const get = <T>(path: string) => svc.api<T>(path);
    expect((await get<{ tools: unknown[] }>('/api/servers/everything/tools')).body.tools.length).toBeGreaterThan(3);
    expect(
      (await get<{ resources: unknown[] }>('/api/servers/everything/resources')).body.resources.length,
    ).toBeGreaterThan(0);
    const templates = await get<{ resourceTemplates: unknown[] }>('/api/servers/everything/resource-templates');
    expect(templates.body.resourceTemplates.length).toBeGreaterThan(0);
    expect((await get<{ prompts: unknown[] }>('/api/servers/everything/prompts')).body.prompts.length).toBeGreaterThan(
      0,
    );
    expect((await get<ErrorBody>('/api/servers/remote/prompts')).status).toBe(503);
  });

  it('gives the last stderr lines with ?tail=N and refuses a bad tail', async () => {
    const all = await svc.api<{ lines: string[] }>('/api/servers/tiny/stderr');
    expect(all.body.lines).toEqual(expect.arrayContaining(['stderr line 1', 'stderr line 5']));
    const tail = await svc.api<{ server: string; lines: string[] }>('/api/servers/tiny/stderr?tail=2');
    expect(tail.body).toEqual({ server: 'tiny', lines: all.body.lines.slice(-2) });
    const bad = await svc.api<ErrorBody>('/api/servers/tiny/stderr?tail=-1');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^invalid query: tail: /);
  });

  it('shows the config in force with every secret masked', async () => {
    const config = await svc.api<{ file: string; config: { mcpServers: Record<string, Record<string, unknown>> } }>(
      '/api/config',
    );
    const text = JSON.stringify(config.body);
    for (const secret of [SECRET, 'hunter2', 'Bearer abc', 'api_key=abc']) expect(text).not.toContain(secret);
    expect(config.body.file).toBe(svc.configPath);
    expect(config.body.config.mcpServers.tiny?.env).toEqual({ TINY_STDERR_LINES: '********', API_KEY: '********' });
    expect(config.body.config.mcpServers.remote?.url).toBe('http://user:********@127.0.0.1:9/mcp?api_key=********&x=1');
    const server = await svc.api<{ server: Record<string, unknown> }>('/api/servers/remote');
    expect(server.body.server.headers).toEqual({ Authorization: '********' });
    expect(JSON.stringify((await svc.api('/api/servers')).body)).not.toContain(SECRET);
  });

  it('lists the presets with what each needs', async () => {
    const { body } = await svc.api<{ presets: { name: string; needs: Record<string, unknown>; installed: boolean }[] }>(
      '/api/presets',
    );
    const byName = Object.fromEntries(body.presets.map((p) => [p.name, p]));
    expect(byName.github?.needs).toEqual({ credential: 'github-token' });
    expect(byName.filesystem).toMatchObject({ installed: true, needs: { args: 'one or more directories to serve' } });
  });

  it("imports another client's file: added once, then nothing, and says so", async () => {
    const source = join(svc.home, 'claude_desktop_config.json');
    await writeFile(
      source,
      JSON.stringify({
        mcpServers: { imported: { command: process.execPath, args: [TINY_SERVER] }, tiny: { command: 'x' } },
      }),
    );
    const first = await post('/api/servers/import', { from: source });
    expect(first).toEqual({
      status: 200,
      body: { renamed: [], added: ['imported'], skipped: ['tiny'], replaced: [], movedSecrets: [], from: source },
    });
    await waitFor(async () => (await svc.server('imported'))?.state === 'connected', { what: 'imported connected' });
    const before = await readFile(svc.configPath, 'utf8');
    const second = await post('/api/servers/import', { from: source });
    expect(second.body).toEqual({
      renamed: [],
      added: [],
      skipped: ['imported', 'tiny'],
      replaced: [],
      movedSecrets: [],
      from: source,
    });
    expect(await readFile(svc.configPath, 'utf8')).toBe(before);
    const missing = await post<ErrorBody>('/api/servers/import', { from: join(svc.home, 'nope.json') });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/nope\.json: cannot read config: file not found/);
    const both = await post<ErrorBody>('/api/servers/import', { from: source, servers: {} });
    expect(both.body.error.message).toBe('invalid request body: servers: give either "servers" or "from"');
  });

  it('makes no token for a bot that does not exist, inherited names included', async () => {
    for (const bot of ['constructor', '__proto__', 'ghost']) {
      const made = await post<ErrorBody>('/api/tokens', { name: 'x', bot });
      expect(made.status, bot).toBe(400);
      expect(made.body.error.message).toBe(
        `bot "${bot}" does not exist (neither in the registry nor in the config file)`,
      );
    }
    expect((await svc.api<{ tokens: unknown[] }>('/api/tokens')).body.tokens).toEqual([]);
  });
});
