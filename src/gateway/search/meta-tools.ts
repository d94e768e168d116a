/**
 * The meta-tools of search mode (issue 24), listed instead of the view's tools: find tools
 * by words, read the definitions of the ones that fit, call one. Their descriptions are
 * short on purpose: the whole search-mode listing stays under 2 KB.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const SEARCH_TOOLS = 'search_tools';
export const DESCRIBE_TOOLS = 'describe_tools';
export const CALL_TOOL = 'call_tool';

/** Whether `name` is a meta-tool's. */
export const isMetaTool = (name: string): boolean =>
  name === SEARCH_TOOLS || name === DESCRIBE_TOOLS || name === CALL_TOOL;

/** The three meta-tools; `maxResults` bounds `limit` and the names `describe_tools` takes. */
export function metaTools(maxResults: number): Tool[] {
  return [
    {
      name: SEARCH_TOOLS,
      description:
        'Find tools for a task. Returns names and one-line descriptions, best first. ' +
        'Query: words ("create a github issue"), "select:name1,name2" for exact names, or "regex:pattern" over names.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do, in words' },
          limit: { type: 'integer', minimum: 1, maximum: maxResults, description: 'How many tools at most' },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOLS,
      description: 'Get the full definitions (description, input schema) of tools found with search_tools.',
      inputSchema: {
        type: 'object',
        properties: { names: { type: 'array', items: { type: 'string' }, maxItems: maxResults } },
        required: ['names'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      description: 'Call a tool found with search_tools, with arguments that match its input schema.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, arguments: { type: 'object' } },
        required: ['name'],
      },
      // Any tool of the view: what the hints promise must hold for all of them (SPEC G7).
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
}
