/**
 * `bnity mcp test-tool SERVER TOOL [--arg k=v]… [--json-args '{…}']`: call one tool through
 * the running service, sanitized and audited like an agent's call. A result marked
 * `isError` exits 1.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseToolArguments } from './parse-values.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** Run `bnity mcp test-tool SERVER TOOL`. */
export async function mcpTestToolCommand(
  server: string,
  tool: string,
  flags: TargetFlags & { arg?: string[]; jsonArgs?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const args = parseToolArguments(flags.arg, flags.jsonArgs);
  const { client, json } = await resolveTarget(flags, env);
  const path = `/api/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/call`;
  const { result } = await needService(`calling a tool`, () =>
    client.request<{ result: CallToolResult }>('POST', path, { arguments: args }),
  );
  if (json) process.stdout.write(`${JSON.stringify({ result }, null, 2)}\n`);
  else process.stdout.write(renderContent(result));
  if (result.isError) {
    process.stderr.write(`bnity: tool "${tool}" of server "${server}" answered with an error\n`);
    return 1;
  }
  return 0;
}

/** Text as it is; anything else (images, resources, structured content) as JSON. */
function renderContent(result: CallToolResult): string {
  const parts = (result.content ?? []).map((c) => (c.type === 'text' ? c.text : JSON.stringify(c)));
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.length > 0 ? `${parts.join('\n')}\n` : '';
}
