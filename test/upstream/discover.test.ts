import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { countCatalog, diffCatalog, EMPTY_CATALOG, listCatalog } from '../../src/upstream/discover.js';
import type { Catalog } from '../../src/upstream/types.js';
import { PAGED_SERVER, testLogger } from '../support/fixtures.js';
import { stdioConfig } from '../support/server-config.js';

const tool = (name: string, description = '') => ({ name, description, inputSchema: { type: 'object' as const } });

describe('diffCatalog', () => {
  it('reports added, removed and changed names per kind, omitting unchanged kinds', () => {
    const prev: Catalog = {
      ...EMPTY_CATALOG,
      tools: [tool('a'), tool('b'), tool('c')],
      resources: [{ uri: 'x://1', name: 'one' }],
      prompts: [{ name: 'p' }],
    };
    const next: Catalog = {
      ...EMPTY_CATALOG,
      tools: [tool('a'), tool('c', 'now described'), tool('d')],
      resources: [{ uri: 'x://1', name: 'renamed' }],
      resourceTemplates: [{ uriTemplate: 'x://{id}', name: 't' }],
      prompts: [{ name: 'p' }],
    };
    expect(diffCatalog(prev, next)).toEqual([
      { kind: 'tools', added: ['d'], removed: ['b'], changed: ['c'] },
      { kind: 'resources', added: [], removed: [], changed: ['x://1'] },
      { kind: 'resourceTemplates', added: ['x://{id}'], removed: [], changed: [] },
    ]);
  });

  it('ignores key order and reports nothing for equal catalogs', () => {
    const a: Catalog = { ...EMPTY_CATALOG, tools: [{ name: 't', inputSchema: { type: 'object' }, description: 'd' }] };
    const b: Catalog = { ...EMPTY_CATALOG, tools: [{ description: 'd', inputSchema: { type: 'object' }, name: 't' }] };
    expect(diffCatalog(a, b)).toEqual([]);
  });
});

describe('listCatalog', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [PAGED_SERVER], stderr: 'ignore' }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('follows nextCursor through every page of every kind', async () => {
    const catalog = await listCatalog(client);
    expect(countCatalog(catalog)).toEqual({ toolCount: 5, resourceCount: 5, resourceTemplateCount: 3, promptCount: 4 });
    expect(catalog.tools.map((t) => t.name)).toEqual(['tool_1', 'tool_2', 'tool_3', 'tool_4', 'tool_5']);
    expect(catalog.resources.at(-1)?.uri).toBe('paged://resource/5');
  });
});

describe('connectUpstream discovery', () => {
  it('lists every page of a paged server, without piling listeners onto one signal', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const config = stdioConfig({ command: process.execPath, args: [PAGED_SERVER] });
    const upstream = await connectUpstream({ serverId: 'paged', config, log: testLogger() });
    try {
      expect(upstream.counts).toEqual({ toolCount: 5, resourceCount: 5, resourceTemplateCount: 3, promptCount: 4 });
      expect(upstream.catalog().resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'paged://template/1/{id}',
        'paged://template/2/{id}',
        'paged://template/3/{id}',
      ]);
    } finally {
      await upstream.close();
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
