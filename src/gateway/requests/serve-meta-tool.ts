/**
 * The meta-tools of search mode (issue 24): `search_tools` ranks the session's tools,
 * `describe_tools` gives their full definitions as listed (sanitized), `call_tool` calls
 * one by the same path as a direct `tools/call` (view, permissions, pins and quarantine,
 * sanitizer, in-flight caps, audit under the real name). A bad argument is a tool error
 * the model can read and fix, in one line.
 * @module
 */
import type { CallToolRequest, CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TOOL, isMetaTool, SEARCH_TOOLS, type ToolIndex } from '../search/index.js';
import type { SessionContext } from '../session/index.js';
import { auditRow } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { searchModeOf, sessionTools } from './search-mode.js';

type Call = (params: CallToolRequest['params']) => Promise<CallToolResult>;

const refused = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

const answer = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/**
 * Serve `params` if it names a meta-tool and the session is in search mode; null otherwise
 * (the name is then an ordinary tool name). `call` is the direct call path.
 */
export async function serveMetaTool(
  path: CallPath,
  ctx: SessionContext,
  params: CallToolRequest['params'],
  call: Call,
): Promise<CallToolResult | null> {
  if (!isMetaTool(params.name)) return null;
  const served = path.views.view(ctx.session.spec);
  const mode = searchModeOf(path, ctx.session, served, await sessionTools(path, ctx.session, served));
  if (!mode) return null;
  const args = params.arguments ?? {};
  if (params.name === CALL_TOOL) {
    const { name, arguments: inner } = args;
    if (typeof name !== 'string' || name === '') return refused('call_tool: "name" must be a tool name (a string)');
    // An upstream tool named like a meta-tool (a server endpoint keeps upstream names) is hidden
    // by it in the listing, and reached here; a meta-tool itself is called directly.
    if (isMetaTool(name) && served.view.tool(name) === null)
      return refused(`call_tool: "${name}" is a meta-tool: call it directly`);
    if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner)))
      return refused('call_tool: "arguments" must be an object');
    return call({ ...params, name, ...(inner === undefined ? {} : { arguments: inner as Record<string, unknown> }) });
  }
  const started = performance.now();
  const result =
    params.name === SEARCH_TOOLS ? searchTools(path, mode.index(), args) : describeTools(path, mode.index(), args);
  path.audit?.commit(
    auditRow('server', ctx.session, started, {
      eventType: 'tool_call',
      serverName: null,
      toolName: params.name,
      input: args,
      output: result,
      success: result.isError !== true,
      error: result.isError ? (result.content[0] as { text: string }).text : null,
    }),
  );
  return result;
}

/** `search_tools {query, limit?}`: names and one-line descriptions, best first. */
function searchTools(path: CallPath, index: ToolIndex, args: Record<string, unknown>): CallToolResult {
  const { defaultResults, maxResults } = path.config().gateway.toolSearch;
  const { query, limit = defaultResults } = args;
  if (typeof query !== 'string' || query.trim() === '')
    return refused('search_tools: "query" must be a non-empty string');
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > maxResults)
    return refused(`search_tools: "limit" must be an integer from 1 to ${maxResults}`);
  const hits = index.search(query, limit);
  if (hits instanceof Error) return refused(`search_tools: ${hits.message}`);
  const text =
    hits.length === 0
      ? `No tool matches "${query.slice(0, 100)}" (${index.size} tools searched).`
      : hits.map((hit) => `${hit.name}: ${hit.summary}`).join('\n');
  return answer(text, {
    tools: hits.map(({ name, title, summary }) => ({ name, ...(title ? { title } : {}), description: summary })),
  });
}

/** `describe_tools {names}`: the full definitions, as a full `tools/list` would list them. */
function describeTools(path: CallPath, index: ToolIndex, args: Record<string, unknown>): CallToolResult {
  const { maxResults } = path.config().gateway.toolSearch;
  const { names } = args;
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string'))
    return refused('describe_tools: "names" must be a non-empty array of tool names');
  if (names.length > maxResults) return refused(`describe_tools: at most ${maxResults} names at once`);
  const tools: Tool[] = [];
  const unknown: string[] = [];
  for (const name of new Set(names as string[])) {
    const tool = index.tool(name);
    if (tool) tools.push(tool);
    else unknown.push(name.slice(0, 128));
  }
  const structured = { tools, ...(unknown.length > 0 ? { unknown } : {}) };
  return answer(JSON.stringify(structured), structured);
}
