/**
 * Search mode through a real SDK client on the gateway (issue 24): the list is the
 * meta-tools; search → describe → call reaches the upstream by the direct call's path
 * (audited under the real name); a denied or quarantined tool is never found and
 * `call_tool` refuses it; `auto` switches at the threshold; a bot's own mode wins.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { listingTokens } from '../../../src/gateway/search/index.js';
import { fixtureServer } from '../../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { catalogServer } from '../../support/tool-catalog.js';
import { waitFor } from '../../support/wait-for.js';

type Structured = {
  tools: { name: string; description?: string; inputSchema?: { properties?: object } }[];
  unknown?: string[];
};

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return result as { content: { type: string; text: string }[]; structuredContent?: Structured; isError?: boolean };
};

let gw: GatewayHarness | null = null;
afterEach(async () => {
  await gw?.stop();
  gw = null;
});

describe('search mode through the SDK client', () => {
  it('lists the meta-tools and alwaysLoad tools in under 2 KB; search → describe → call reaches the upstream', async () => {
    const calls: string[] = [];
    gw = await startGateway({
      servers: {
        github: catalogServer('github', calls),
        filesystem: catalogServer('filesystem'),
        memory: catalogServer('memory'),
      },
      config: { gateway: { toolSearch: { mode: 'on', alwaysLoad: { filesystem: ['read_text_file'] } } } },
    });
    const { client } = await gw.agent();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
      'filesystem__read_text_file',
    ]);
    expect(JSON.stringify({ tools: tools.slice(0, 3) }).length).toBeLessThan(2048);
    // Our own tools carry the four hints (SPEC G7): the two readers, and call_tool as any tool may be.
    const hints = (t: (typeof tools)[number]) => [
      t.annotations?.readOnlyHint,
      t.annotations?.destructiveHint,
      t.annotations?.idempotentHint,
      t.annotations?.openWorldHint,
    ];
    expect(tools.slice(0, 3).map(hints)).toEqual([
      [true, false, true, false],
      [true, false, true, false],
      [false, true, false, true],
    ]);

    const found = await call(client, 'search_tools', { query: 'open an issue about the login bug', limit: 3 });
    expect(found.isError).toBeUndefined();
    const names = found.structuredContent?.tools.map((t) => t.name) ?? [];
    expect(names).toContain('github__create_issue');
    expect(found.content[0]?.text).toContain('github__create_issue: ');

    const described = await call(client, 'describe_tools', { names: ['github__create_issue', 'nope__x'] });
    expect(described.structuredContent?.tools[0]?.name).toBe('github__create_issue');
    expect(Object.keys(described.structuredContent?.tools[0]?.inputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['owner', 'repo', 'title']),
    );
    expect(described.structuredContent?.unknown).toEqual(['nope__x']);

    const args = { owner: 'o', repo: 'r', title: 'Login fails' };
    const ran = await call(client, 'call_tool', { name: 'github__create_issue', arguments: args });
    expect(ran.content[0]?.text).toBe(`github ran create_issue ${JSON.stringify(args)}`);
    expect(calls).toEqual(['create_issue']);
    // The audit has the real tool, as for a direct call, and the searches under their own names.
    const rows = gw.audit.filter((row) => row.eventType === 'tool_call');
    expect(rows.map((row) => [row.serverName, row.toolName, row.success])).toEqual([
      [null, 'search_tools', true],
      [null, 'describe_tools', true],
      ['github', 'create_issue', true],
    ]);
    // A direct call by the real name still works in search mode.
    expect((await call(client, 'github__get_me', {})).content[0]?.text).toBe('github ran get_me {}');
  });

  it('a denied or quarantined tool is never found, and call_tool refuses it', async () => {
    const calls: string[] = [];
    gw = await startGateway({
      servers: {
        github: { ...catalogServer('github', calls), entry: { deniedTools: ['delete_file'] } },
        filesystem: catalogServer('filesystem', calls),
      },
      pins: { isHidden: (server, tool) => server === 'filesystem' && tool === 'move_file' },
      config: { gateway: { toolSearch: { mode: 'on' } } },
    });
    const { client } = await gw.agent();
    const names = async (query: string) =>
      (await call(client, 'search_tools', { query, limit: 50 })).structuredContent?.tools.map((t) => t.name) ?? [];
    expect(await names('delete a file')).not.toContain('github__delete_file');
    expect(await names('regex:delete_file|move_file')).toEqual([]);
    expect(await names('select:github__delete_file,filesystem__move_file,filesystem__read_file')).toEqual([
      'filesystem__read_file',
    ]);
    const described = await call(client, 'describe_tools', { names: ['github__delete_file'] });
    expect(described.structuredContent).toEqual({ tools: [], unknown: ['github__delete_file'] });
    await expect(call(client, 'call_tool', { name: 'github__delete_file', arguments: {} })).rejects.toThrow(
      'tool "github__delete_file" is not available in this view',
    );
    await expect(call(client, 'call_tool', { name: 'filesystem__move_file', arguments: {} })).rejects.toThrow(
      'is not available in this view',
    );
    expect(calls).toEqual([]);
  });

  it('bad meta-tool arguments are one-line tool errors the model can fix', async () => {
    gw = await startGateway({
      servers: { memory: catalogServer('memory') },
      config: { gateway: { toolSearch: { mode: 'on' } } },
    });
    const { client } = await gw.agent();
    const cases: [string, Record<string, unknown>, string][] = [
      ['search_tools', {}, 'search_tools: "query" must be a non-empty string'],
      ['search_tools', { query: 'x', limit: 0 }, 'search_tools: "limit" must be an integer from 1 to 50'],
      [
        'search_tools',
        { query: 'regex:(' },
        'search_tools: not a regular expression: error parsing regexp: missing closing ): `(`',
      ],
      ['describe_tools', { names: [] }, 'describe_tools: "names" must be a non-empty array of tool names'],
      ['call_tool', { arguments: {} }, 'call_tool: "name" must be a tool name (a string)'],
      ['call_tool', { name: 'search_tools' }, 'call_tool: "search_tools" is a meta-tool: call it directly'],
      ['call_tool', { name: 'memory__read_graph', arguments: [1] }, 'call_tool: "arguments" must be an object'],
    ];
    for (const [name, args, text] of cases) {
      const result = await call(client, name, args);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text }] });
    }
  });

  it('auto turns search on only over the threshold; a token’s mode wins over its bot’s, a bot’s over the gateway’s', async () => {
    const servers = { github: catalogServer('github'), memory: catalogServer('memory') };
    gw = await startGateway({ servers, config: { gateway: { toolSearch: { mode: 'auto' } } } });
    // github and memory list ~40,000 estimated tokens: over the default 20,000, so search mode.
    const tokens = listingTokens(gw.gateway.listTools({ kind: 'all' }));
    expect(tokens).toBeGreaterThan(20_000);
    expect((await (await gw.agent()).client.listTools()).tools).toHaveLength(3);
    const listedWith = async (config: Record<string, unknown>, spec = { kind: 'all' } as const) => {
      gw?.reload({ config });
      return (await (await (gw as GatewayHarness).agent(spec)).client.listTools()).tools.map((t) => t.name);
    };
    // At the threshold: still the full list; one token under it: search mode.
    expect(await listedWith({ gateway: { toolSearch: { mode: 'auto', autoThresholdTokens: tokens } } })).toHaveLength(
      123,
    );
    expect(await listedWith({ gateway: { toolSearch: { mode: 'auto', autoThresholdTokens: tokens - 1 } } })).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
    ]);
    // The bot's own setting is more specific than the gateway's.
    const bots = { bots: { quiet: { toolSearch: 'off' }, busy: { toolSearch: 'on' } } };
    expect(
      await listedWith({ ...bots, gateway: { toolSearch: 'on' } }, { kind: 'bot', slug: 'quiet' } as never),
    ).toHaveLength(123);
    expect(
      await listedWith({ ...bots, gateway: { toolSearch: 'off' } }, { kind: 'bot', slug: 'busy' } as never),
    ).toHaveLength(3);
    // A token's own setting (by token id, or admin) is more specific still.
    const perToken = { 'tok-search': 'on', admin: 'auto' };
    gw.reload({
      config: { ...bots, gateway: { toolSearch: { mode: 'off', tokens: perToken, autoThresholdTokens: 1 } } },
    });
    const listed = async (spec: { kind: 'all' } | { kind: 'bot'; slug: string }, clientId: string) =>
      (await (await (gw as GatewayHarness).agent(spec, {}, clientId)).client.listTools()).tools.length;
    expect(await listed({ kind: 'all' }, 'tok-search')).toBe(3);
    expect(await listed({ kind: 'all' }, 'tok-other')).toBe(123);
    expect(await listed({ kind: 'all' }, 'admin')).toBe(3);
    expect(await listed({ kind: 'bot', slug: 'quiet' }, 'tok-search')).toBe(3);
  });

  it('the index follows the catalog: a tool added upstream (list_changed) is found, without a new session', async () => {
    gw = await startGateway({
      servers: { fx: { make: () => fixtureServer() }, memory: catalogServer('memory') },
      config: { gateway: { toolSearch: { mode: 'on' } } },
    });
    const { client } = await gw.agent();
    const find = async (query: string) =>
      (await call(client, 'search_tools', { query, limit: 5 })).structuredContent?.tools.map((t) => t.name) ?? [];
    expect(await find('weather report')).toEqual([]);
    await call(client, 'call_tool', { name: 'fx__add_tool', arguments: { name: 'weather_report' } });
    const harness = gw;
    await harness.until(
      () => harness.gateway.listTools({ kind: 'all' }).some((t) => t.name === 'fx__weather_report'),
      'the new tool in the view',
    );
    expect((await find('weather report'))[0]).toBe('fx__weather_report');
    expect((await call(client, 'call_tool', { name: 'fx__weather_report' })).content[0]?.text).toBe(
      'I am weather_report',
    );
  });
});

describe('search mode switched by a config change', () => {
  it("tells a session tools/list_changed when its search mode or search settings change, and not for another token's", async () => {
    gw = await startGateway({
      servers: { github: catalogServer('github'), memory: catalogServer('memory') },
      config: { gateway: { toolSearch: { mode: 'off' } } },
    });
    const { client } = await gw.agent();
    const other = await gw.agent({ kind: 'all' }, {}, 'other-token');
    let told = 0;
    let otherTold = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told += 1;
    });
    other.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      otherTold += 1;
    });
    const full = (await client.listTools()).tools.map((t) => t.name);
    expect(full).not.toContain('search_tools');
    // Search on for this token only: its session is told, its list is the meta-tools; the other's stays.
    gw.reload({ config: { gateway: { toolSearch: { mode: 'off', tokens: { test: 'on' } } } } });
    await waitFor(() => told === 1, { what: 'tools/list_changed for the switched token' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
    ]);
    expect((await other.client.listTools()).tools.map((t) => t.name)).toEqual(full);
    // A tool loaded always: a change of how its list is made, told again.
    gw.reload({
      config: {
        gateway: { toolSearch: { mode: 'off', tokens: { test: 'on' }, alwaysLoad: { memory: ['read_graph'] } } },
      },
    });
    await waitFor(() => told === 2, { what: 'tools/list_changed for alwaysLoad' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory__read_graph');
    // The same config again: nothing to tell.
    gw.reload({
      config: {
        gateway: { toolSearch: { mode: 'off', tokens: { test: 'on' }, alwaysLoad: { memory: ['read_graph'] } } },
      },
    });
    await client.listTools();
    expect(told).toBe(2);
    // The other token's session, not in search mode, was told nothing of it.
    expect(otherTold).toBe(0);
  });
});

describe('an upstream tool named like a meta-tool', () => {
  it('is hidden by the meta-tool on a server endpoint, and still reached with call_tool', async () => {
    const calls: string[] = [];
    gw = await startGateway({
      servers: {
        finder: {
          make: () => {
            const server = new McpServer({ name: 'finder', version: '1.0.0' }, { capabilities: { tools: {} } });
            server.server.setRequestHandler(ListToolsRequestSchema, () => ({
              tools: [
                { name: 'search_tools', description: 'Searches the finder', inputSchema: { type: 'object' } },
                { name: 'locate', description: 'Locates a file', inputSchema: { type: 'object' } },
              ],
            }));
            server.server.setRequestHandler(CallToolRequestSchema, (request) => {
              calls.push(request.params.name);
              return { content: [{ type: 'text', text: `finder ran ${request.params.name}` }] };
            });
            return server;
          },
        },
      },
      config: { gateway: { toolSearch: { mode: 'on' } } },
    });
    const { client } = await gw.agent({ kind: 'server', server: 'finder' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'search_tools',
      'describe_tools',
      'call_tool',
    ]);
    const reached = await call(client, 'call_tool', { name: 'search_tools', arguments: { q: 'x' } });
    expect(reached.isError).toBeFalsy();
    expect(reached.content[0]?.text).toBe('finder ran search_tools');
    expect(calls).toEqual(['search_tools']);
    // A meta-tool no upstream tool shares a name with is still called directly.
    const refusal = await call(client, 'call_tool', { name: 'describe_tools' });
    expect(refusal.content[0]?.text).toBe('call_tool: "describe_tools" is a meta-tool: call it directly');
  });
});
