/**
 * A bot that goes takes its agents with it (SPEC X1, G3): deleting a bot from the registry
 * revokes its tokens and ends the sessions they opened; a bot that then exists nowhere (its
 * config entry gone too) ends every session of its view, which never falls back to the wider
 * default view a registry-only bot gets.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const tiny = { command: process.execPath, args: [TINY_SERVER] };
type TokenRow = { id: string; bot: string | null; revokedAt: string | null };

describe('a deleted bot', { timeout: 60_000 }, () => {
  let svc: TestService;
  const opened: Client[] = [];
  const connect = async (path: string, token?: string) => {
    const client = await connectHttpClient(`${svc.service.url}${path}`, {}, token);
    opened.push(client);
    return client;
  };
  /** The servers' tools `client` is shown (the bot tools aside). */
  const toolNames = async (client: Client) =>
    (await client.listTools()).tools
      .map((t) => t.name)
      .filter((name) => name.endsWith('__echo'))
      .sort();
  /** Resolves once `client`'s session is gone: its requests are refused. */
  const ended = (client: Client) =>
    waitFor(
      () =>
        client.listTools().then(
          () => null,
          (error: Error) => error,
        ),
      { what: 'the session to end' },
    );

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { kept: tiny, wide: tiny },
      bots: { scout: { removedServers: ['wide'] }, narrow: { removedServers: ['wide'] } },
    });
    for (const name of ['kept', 'wide'])
      await waitFor(async () => (await svc.server(name))?.state === 'connected', { what: `${name} connected` });
  });
  afterAll(async () => {
    for (const client of opened) await client.close().catch(() => undefined);
    await svc?.stop();
  });

  it('revokes its tokens and ends their sessions, the config view kept', async () => {
    expect((await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout' })).status).toBe(201);
    const made = await svc.send<{ id: string; token: string }>('POST', '/api/tokens', { name: 'agent', bot: 'scout' });
    const agent = await connect('/mcp', made.body.token);
    expect(await toolNames(agent)).toEqual(['kept__echo']);
    // An admin session on the bot's endpoint: the bot lives on in the config file, so it stays.
    const admin = await connect('/mcp/bots/scout');
    expect((await svc.api('/api/bots/scout', { method: 'DELETE' })).status).toBe(200);

    // Its token revoked, the agent's next request is refused, and its session is gone.
    expect((await ended(agent)).message).toMatch(/invalid bearer token/);
    expect(
      svc.service.gateway.sessions().filter((s) => s.bot === 'scout' && s.botAccess?.caller.kind === 'bot'),
    ).toEqual([]);
    const tokens = (await svc.api<{ tokens: TokenRow[] }>('/api/tokens')).body.tokens;
    expect(tokens.find((t) => t.id === made.body.id)?.revokedAt).not.toBeNull();
    await expect(connect('/mcp', made.body.token)).rejects.toThrow(/invalid bearer token/);
    expect(await toolNames(admin)).toEqual(['kept__echo']);
    // The slug made again: the old token stands for nothing.
    expect((await svc.send('POST', '/api/bots', { slug: 'scout', name: 'Scout again' })).status).toBe(201);
    await expect(connect('/mcp', made.body.token)).rejects.toThrow(/invalid bearer token/);
  });

  it('ends the sessions of its view once it exists nowhere, never widening them to the default view', async () => {
    const admin = await connect('/mcp/bots/narrow');
    expect(await toolNames(admin)).toEqual(['kept__echo']);
    // `narrow` lives in the config file alone: deleting its view deletes the bot.
    expect((await svc.api('/api/bots/narrow?withView=true', { method: 'DELETE' })).status).toBe(200);
    const error = await ended(admin);
    expect(error.message).not.toContain('wide__echo');
    expect(svc.service.gateway.sessions().filter((s) => s.bot === 'narrow')).toEqual([]);
    await expect(connect('/mcp/bots/narrow')).rejects.toThrow(/"code":"unknown_bot"/);
  });
});
