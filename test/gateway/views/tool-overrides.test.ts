/**
 * Tool overrides (issue 24): the operator's name, title and description replace the
 * upstream's in every list (full and search mode), a hidden tool is gone, a renamed tool is
 * called by its new name (the upstream gets its own) and audited with both names; pins
 * keep watching the upstream's own text, which the upstream still sends unchanged.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGateway } from '../../support/gateway-harness.js';
import { catalogServer } from '../../support/tool-catalog.js';

describe('tool overrides', () => {
  let gw: GatewayHarness;
  let agent: Client;
  const calls: string[] = [];
  beforeAll(async () => {
    gw = await startGateway({
      servers: {
        gh: {
          ...catalogServer('github', calls),
          entry: {
            toolOverrides: {
              create_issue: { name: 'new_ticket', description: 'File a ticket in the team tracker' },
              delete_repository: { hidden: true },
              get_me: { title: 'Who am I' },
            },
          },
        },
      },
      config: { bots: { finder: { toolSearch: 'on' } } },
    });
    agent = (await gw.agent()).client;
  });
  afterAll(() => gw.stop());

  it('lists the operator’s text and leaves hidden tools out', async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('gh__new_ticket')?.description).toBe('File a ticket in the team tracker');
    expect(byName.get('gh__new_ticket')?.inputSchema.required).toEqual(
      expect.arrayContaining(['owner', 'repo', 'title']),
    );
    expect(byName.get('gh__get_me')?.title).toBe('Who am I');
    expect(byName.has('gh__create_issue')).toBe(false);
    expect(byName.has('gh__delete_repository')).toBe(false);
    expect(tools).toHaveLength(113);
  });

  it('calls a renamed tool by its new name, the upstream by its own; audited with both', async () => {
    const result = await agent.callTool({ name: 'gh__new_ticket', arguments: { owner: 'o', repo: 'r', title: 't' } });
    expect(result.content).toEqual([
      { type: 'text', text: 'github ran create_issue {"owner":"o","repo":"r","title":"t"}' },
    ]);
    expect(calls).toEqual(['create_issue']);
    const row = gw.audit.filter((r) => r.eventType === 'tool_call').at(-1);
    expect(row).toMatchObject({ serverName: 'gh', toolName: 'create_issue as new_ticket', success: true });
  });

  it('the old name and a hidden tool are not in the view', async () => {
    for (const name of ['gh__create_issue', 'gh__delete_repository'])
      await expect(agent.callTool({ name, arguments: {} })).rejects.toThrow(
        `tool "${name}" is not available in this view`,
      );
    expect(calls).toEqual(['create_issue']);
  });

  it('search finds a tool by the operator’s words, under its new name', async () => {
    const { client } = await gw.agent({ kind: 'bot', slug: 'finder' });
    const found = (await client.callTool({
      name: 'search_tools',
      arguments: { query: 'file a ticket', limit: 3 },
    })) as unknown as {
      structuredContent: { tools: { name: string; description: string }[] };
    };
    // The title not overridden stays the upstream's (its annotations' title here).
    expect(found.structuredContent.tools[0]).toEqual({
      name: 'gh__new_ticket',
      title: 'Create Issue',
      description: 'File a ticket in the team tracker',
    });
    const hidden = (await client.callTool({
      name: 'search_tools',
      arguments: { query: 'regex:delete_repository' },
    })) as unknown as {
      structuredContent: { tools: unknown[] };
    };
    expect(hidden.structuredContent.tools).toEqual([]);
  });
});
