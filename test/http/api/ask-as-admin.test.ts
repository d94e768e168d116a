/**
 * The catalog's requests against the real service (issue 19): read a resource, get a prompt
 * and complete an argument as an agent would, through the gateway (sanitized, audited with
 * the admin as client), with real upstreams (a small SDK server and server-everything), and
 * every bad request answered in one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../../support/everything.js';
import { CATALOG_PIXEL, CATALOG_SERVER, TINY_SERVER } from '../../support/fixtures.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

type ErrorBody = { error: { code: string; message: string; issues?: { field: string }[] } };
type Contents = { contents: { uri: string; mimeType?: string; text?: string; blob?: string }[] };
type Messages = { description?: string; messages: { role: string; content: Record<string, unknown> }[] };
type Completion = { completion: { values: string[]; total?: number; hasMore?: boolean } };

describe('reading resources, getting prompts and completing through the control API', { timeout: 60_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        catalog: { command: process.execPath, args: [CATALOG_SERVER] },
        everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
        tiny: { command: process.execPath, args: [TINY_SERVER] },
        off: { command: process.execPath, args: [TINY_SERVER], enabled: false },
      },
    });
    await waitFor(async () => (await svc.servers()).filter((s) => s.state === 'connected').length === 3, {
      what: 'catalog, everything and tiny connected',
    });
  });
  afterAll(() => svc?.stop());
  const post = <T>(path: string, body: unknown) =>
    svc.api<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const auditRow = (eventType: string, toolName: string) =>
    waitFor(
      async () =>
        (await svc.api<{ entries: Record<string, unknown>[] }>('/api/audit?server=catalog')).body.entries.find(
          (row) => row.eventType === eventType && row.toolName === toolName,
        ),
      { what: `the ${eventType} audit row` },
    );

  it('reads a text resource sanitized as an agent gets it, and audits the read as the admin', async () => {
    const read = await post<Contents>('/api/servers/catalog/resources/read', { uri: 'note://readme' });
    expect(read).toEqual({
      status: 200,
      body: { contents: [{ uri: 'note://readme', mimeType: 'text/plain', text: 'Read me first.\nLine two.' }] },
    });
    expect(await auditRow('resource_read', 'note://readme')).toMatchObject({
      serverName: 'catalog',
      clientId: 'admin',
      success: true,
    });
  });

  it('reads JSON as text and a PNG as its base64 bytes, and a template-filled URI', async () => {
    const json = await post<Contents>('/api/servers/catalog/resources/read', { uri: 'data://config.json' });
    expect(JSON.parse(json.body.contents[0]?.text ?? '')).toEqual({ name: 'demo', count: 3, enabled: true });
    const png = await post<Contents>('/api/servers/catalog/resources/read', { uri: 'data://pixel.png' });
    expect(png.body.contents).toEqual([{ uri: 'data://pixel.png', mimeType: 'image/png', blob: CATALOG_PIXEL }]);
    const note = await post<Contents>('/api/servers/catalog/resources/read', { uri: 'note://notes/beta' });
    expect(note.body.contents[0]?.text).toBe('The second note.');
    const dynamic = await post<Contents>('/api/servers/everything/resources/read', {
      uri: 'demo://resource/dynamic/blob/7',
    });
    expect(Buffer.from(dynamic.body.contents[0]?.blob ?? '', 'base64').toString()).toMatch(/^Resource 7: /);
  });

  it('refuses a read in one line: bad body, unlisted URI, upstream refusal, no such server, not connected, no resources', async () => {
    const cases: [string, unknown, number, string][] = [
      ['catalog', {}, 400, 'invalid request body: uri: '],
      ['catalog', { uri: '' }, 400, 'invalid request body: uri: expected a URI'],
      ['catalog', { uri: 'x', extra: 1 }, 400, 'invalid request body: extra: unknown field'],
      ['catalog', { uri: 'nope://x' }, 404, 'resource "nope://x" is not offered by server "catalog"'],
      ['catalog', { uri: 'note://notes/zeta' }, 400, 'reading note://notes/zeta: no resource note://notes/zeta'],
      ['ghost', { uri: 'a://b' }, 404, 'server "ghost" is not configured'],
      ['off', { uri: 'a://b' }, 503, 'server "off" is disabled'],
      ['tiny', { uri: 'a://b' }, 409, 'server "tiny" does not offer resources (not in its capabilities)'],
    ];
    for (const [server, body, status, message] of cases) {
      const answer = await post<ErrorBody>(`/api/servers/${server}/resources/read`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error.message.startsWith(message), answer.body.error.message).toBe(true);
      expect(answer.body.error.message).not.toContain('\n');
    }
    // Refusals change nothing: the server still answers.
    expect((await post<Contents>('/api/servers/catalog/resources/read', { uri: 'note://readme' })).status).toBe(200);
  });

  it('gets a prompt with its arguments: the messages of every kind, audited', async () => {
    const got = await post<Messages>('/api/servers/catalog/prompts/greet/get', {
      arguments: { name: 'Ann', style: 'formal' },
    });
    expect(got.status).toBe(200);
    expect(got.body.description).toBe('A formal greeting');
    expect(got.body.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Greet Ann (formal).' } },
      { role: 'assistant', content: { type: 'text', text: 'Good day, Ann!' } },
      { role: 'user', content: { type: 'image', mimeType: 'image/png', data: CATALOG_PIXEL } },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'note://notes/alpha', mimeType: 'text/plain', text: 'The first note.' },
        },
      },
    ]);
    expect(await auditRow('prompt_get', 'greet')).toMatchObject({ clientId: 'admin', success: true });
    const everything = await post<Messages>('/api/servers/everything/prompts/args-prompt/get', {
      arguments: { city: 'Lyon' },
    });
    expect(everything.body.messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Lyon?" });
  });

  it('refuses a get in one line: missing argument, unknown prompt, upstream failure, bad arguments', async () => {
    const cases: [string, unknown, number, string][] = [
      ['greet', {}, 400, 'getting prompt "greet": missing required argument "name"'],
      ['nope', {}, 404, 'prompt "nope" is not offered by server "catalog"'],
      [
        'greet',
        { arguments: { name: 'Ann', style: 'odd' } },
        502,
        'getting prompt "greet" on server "catalog" failed: ',
      ],
      ['greet', { arguments: { name: 3 } }, 400, 'invalid request body: arguments.name: '],
      ['greet', { args: {} }, 400, 'invalid request body: args: unknown field'],
    ];
    for (const [prompt, body, status, message] of cases) {
      const answer = await post<ErrorBody>(`/api/servers/catalog/prompts/${prompt}/get`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error.message.startsWith(message), answer.body.error.message).toBe(true);
      expect(answer.body.error.message).not.toContain('\n');
    }
    // An upstream's long error text is passed on cut, on one line.
    const long = await post<ErrorBody>('/api/servers/catalog/prompts/greet/get', {
      arguments: { name: 'Ann', style: `odd\n${'x'.repeat(2_000)}` },
    });
    expect(long.status).toBe(502);
    expect(long.body.error.message).toMatch(
      /^getting prompt "greet" on server "catalog" failed: .*unknown style "odd x+…$/,
    );
    expect(long.body.error.message.length).toBeLessThan(400);
    const noPrompts = await post<ErrorBody>('/api/servers/tiny/prompts/x/get', {});
    expect(noPrompts).toEqual({
      status: 409,
      body: { error: { code: 'conflict', message: 'server "tiny" does not offer prompts (not in its capabilities)' } },
    });
  });

  it('completes prompt and template arguments, narrowed by the context', async () => {
    const style = await post<Completion>('/api/servers/catalog/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'c' },
    });
    expect(style).toEqual({
      status: 200,
      body: { completion: { values: ['casual', 'cheerful'], total: 2, hasMore: false } },
    });
    const narrowed = await post<Completion>('/api/servers/catalog/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: '' },
      context: { arguments: { name: 'Ann' } },
    });
    expect(narrowed.body.completion.values).toEqual(['formal']);
    const id = await post<Completion>('/api/servers/catalog/complete', {
      ref: { type: 'ref/resource', uri: 'note://notes/{id}' },
      argument: { name: 'id', value: 'g' },
    });
    expect(id.body.completion.values).toEqual(['gamma']);
    const team = await post<Completion>('/api/servers/everything/complete', {
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(team.body.completion.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('refuses a completion in one line: bad ref, unknown prompt or template, a server without completions', async () => {
    const cases: [string, unknown, number, string][] = [
      [
        'catalog',
        { ref: { type: 'ref/x' }, argument: { name: 'a', value: '' } },
        400,
        'invalid request body: ref.type: ',
      ],
      ['catalog', { ref: { type: 'ref/prompt', name: 'greet' } }, 400, 'invalid request body: argument: '],
      [
        'catalog',
        { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } },
        404,
        'prompt "nope" is not offered by server "catalog"',
      ],
      [
        'catalog',
        { ref: { type: 'ref/resource', uri: 'zz://{q}' }, argument: { name: 'q', value: '' } },
        404,
        'resource "zz://{q}" is not offered by server "catalog"',
      ],
      [
        'tiny',
        { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } },
        409,
        'server "tiny" does not offer completions (not in its capabilities)',
      ],
    ];
    for (const [server, body, status, message] of cases) {
      const answer = await post<ErrorBody>(`/api/servers/${server}/complete`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.error.message.startsWith(message), answer.body.error.message).toBe(true);
    }
  });

  it('says which capabilities a server declared, and 503 while it is not connected', async () => {
    const catalog = await svc.api<{ capabilities: Record<string, unknown> }>('/api/servers/catalog/capabilities');
    expect(Object.keys(catalog.body.capabilities).sort()).toEqual(['completions', 'prompts', 'resources']);
    const tiny = await svc.api<{ capabilities: Record<string, unknown> }>('/api/servers/tiny/capabilities');
    expect(tiny.body.capabilities.completions).toBeUndefined();
    expect((await svc.api('/api/servers/off/capabilities')).status).toBe(503);
    expect((await svc.api('/api/servers/ghost/capabilities')).status).toBe(404);
  });
});
