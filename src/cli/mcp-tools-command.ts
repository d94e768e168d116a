/**
 * `bnity mcp tools NAME`: the tools a connected server offers, with the first line of each
 * description; `--json` gives them whole (input schemas too). Needs the running service.
 * @module
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { formatTable } from './format-table.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** Run `bnity mcp tools NAME`. */
export async function mcpToolsCommand(name: string, flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const answer = await needService(`listing the tools of "${name}"`, () =>
    client.get<{ server: string; tools: Tool[] }>(`/api/servers/${encodeURIComponent(name)}/tools`),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return 0;
  }
  const rows = answer.tools.map((t) => [t.name, firstLine(t.description ?? '')]);
  process.stdout.write(`${formatTable(['TOOL', 'DESCRIPTION'], rows)}\n`);
  return 0;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
