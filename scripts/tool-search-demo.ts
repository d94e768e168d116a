/**
 * Issue 24's closing figures, on a real service: the size of `tools/list` with and without
 * search mode for the default config's three reference servers plus 17 servers of real
 * tool lists (the fixture catalogs, some twice under other names: 20 servers in all), and
 * a transcript of an SDK client finding and calling a tool in search mode.
 * Run: `npx tsx scripts/tool-search-demo.ts` (needs no build).
 */
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connectHttpClient } from '../test/support/mcp-client.js';
import { startTestService } from '../test/support/test-service.js';
import { waitFor } from '../test/support/wait-for.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) =>
  join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');
const CATALOG_SERVER = join(import.meta.dirname, '..', 'test', 'support', 'fixture-catalog-server.mjs');
const node = process.execPath;

const home = await mkdtemp(join(tmpdir(), 'bnity-demo-'));
const catalogs = [
  'github',
  'okta',
  'kubectl',
  'sonarqube',
  'sqlite',
  'stripe',
  'buildkite',
  'notion',
  'neo4j',
  'gmail',
  'sentry',
];
const mcpServers: Record<string, unknown> = {
  memory: { command: node, args: [bin('server-memory')], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } },
  filesystem: { command: node, args: [bin('server-filesystem'), home] },
  everything: { command: node, args: [bin('server-everything'), 'stdio'] },
};
for (const name of catalogs) mcpServers[name] = { command: node, args: [CATALOG_SERVER], env: { CATALOG: name } };
// Six more under other names (a second GitHub org, a staging cluster …): 20 servers.
for (const [alias, name] of [
  ['github_work', 'github'],
  ['kubectl_staging', 'kubectl'],
  ['stripe_test', 'stripe'],
  ['sqlite_archive', 'sqlite'],
  ['buildkite_oss', 'buildkite'],
  ['sonarqube_cloud', 'sonarqube'],
] as const)
  mcpServers[alias] = { command: node, args: [CATALOG_SERVER], env: { CATALOG: name } };

const svc = await startTestService({ bots: { searcher: { toolSearch: 'on' } }, mcpServers }, { home });
try {
  await waitFor(
    async () =>
      (await svc.api<{ servers: { state: string }[] }>('/api/servers')).body.servers.every(
        (s) => s.state === 'connected',
      ),
    {
      what: 'all servers connected',
      timeoutMs: 60_000,
    },
  );
  const full = await connectHttpClient(`${svc.service.url}/mcp`);
  const fullList = await full.listTools();
  const fullBytes = JSON.stringify(fullList).length;
  const agent = await connectHttpClient(`${svc.service.url}/mcp/bots/searcher`);
  const searchList = await agent.listTools();
  const searchBytes = JSON.stringify(searchList).length;
  console.log(`servers: ${Object.keys(mcpServers).length}, tools: ${fullList.tools.length}`);
  console.log(`tools/list without search mode: ${fullBytes} bytes, ~${Math.ceil(fullBytes / 4)} tokens`);
  console.log(`tools/list in search mode:      ${searchBytes} bytes, ~${Math.ceil(searchBytes / 4)} tokens`);
  const show = (label: string, value: unknown) => console.log(`\n${label}\n${JSON.stringify(value, null, 1)}`);
  show(
    '→ tools/list',
    searchList.tools.map((t) => t.name),
  );
  const request = { name: 'search_tools', arguments: { query: 'open an issue about the login bug', limit: 3 } };
  show(`→ tools/call ${JSON.stringify(request)}`, (await agent.callTool(request)).content);
  const describe = { name: 'describe_tools', arguments: { names: ['github__create_issue'] } };
  const described = (await agent.callTool(describe)) as { structuredContent?: unknown };
  show(`→ tools/call ${JSON.stringify(describe)}`, described.structuredContent);
  const call = {
    name: 'call_tool',
    arguments: {
      name: 'github__create_issue',
      arguments: { owner: 'acme', repo: 'web', title: 'Login fails with SSO' },
    },
  };
  show(`→ tools/call ${JSON.stringify(call)}`, (await agent.callTool(call)).content);
  await full.close();
  await agent.close();
} finally {
  await svc.stop();
}
