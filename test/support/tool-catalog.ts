/**
 * The fixture catalog of test/fixtures/tool-catalogs/ (issue 24): real servers' tool lists,
 * named as a gateway view names them (`{server}__{tool}`), and the task-style query set.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessServer } from './gateway-harness.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'tool-catalogs');

/** Each fixture server's tools, by server name (the file name). */
export function fixtureCatalogs(): Map<string, Tool[]> {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'queries.json');
  return new Map(
    files.map((f) => [f.slice(0, -'.json'.length), JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Tool[]]),
  );
}

/** Every fixture tool as a view lists it: public name, server, upstream name. */
export function fixtureView(): { tool: Tool; server: string; ownName: string }[] {
  return [...fixtureCatalogs()].flatMap(([server, tools]) =>
    tools.map((tool) => ({ tool: { ...tool, name: `${server}__${tool.name}` }, server, ownName: tool.name })),
  );
}

/** The query set: a task as an agent would say it, and the tools that do it. */
export function fixtureQueries(): [query: string, right: string[]][] {
  return JSON.parse(readFileSync(join(DIR, 'queries.json'), 'utf8'));
}

/** An in-process upstream listing fixture server `name`'s tools; a call answers with what it got, and is noted in `calls`. */
export function catalogServer(name: string, calls: string[] = []): HarnessServer {
  const tools = fixtureCatalogs().get(name);
  if (!tools) throw new Error(`no fixture catalog ${name}`);
  return {
    make: () => {
      const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
      server.server.setRequestHandler(CallToolRequestSchema, (request) => {
        calls.push(request.params.name);
        const text = `${name} ran ${request.params.name} ${JSON.stringify(request.params.arguments)}`;
        return { content: [{ type: 'text', text }] };
      });
      return server;
    },
  };
}
