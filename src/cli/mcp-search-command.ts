/**
 * `bnity mcp search "QUERY" [--bot SLUG] [--limit N]` (issue 24): the tools of the whole
 * view (or a bot's) ranked for a query, as an agent's `search_tools` ranks them; `--json`
 * gives the API's answer. Needs the running service.
 * @module
 */
import { formatTable } from './format-table.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** What `GET /api/tools/search` answers. */
type Found = {
  query: string;
  view: string;
  tools: { name: string; title?: string; description: string; score: number }[];
  searched: number;
  estimatedTokens: number;
};

/** Run `bnity mcp search`. */
export async function mcpSearchCommand(
  query: string,
  flags: TargetFlags & { bot?: string; limit?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const params = new URLSearchParams({ q: query });
  if (flags.bot) params.set('bot', flags.bot);
  if (flags.limit) params.set('limit', flags.limit);
  const found = await needService(`searching the tools for "${query}"`, () =>
    client.get<Found>(`/api/tools/search?${params}`),
  );
  if (json) {
    process.stdout.write(`${JSON.stringify(found, null, 2)}\n`);
    return 0;
  }
  if (found.tools.length === 0) {
    process.stdout.write(`no tool of ${found.view} (${found.searched} tools) matches "${query}"\n`);
    return 0;
  }
  const rows = found.tools.map((t, i) => [String(i + 1), t.name, t.description]);
  process.stdout.write(`${formatTable(['#', 'TOOL', 'DESCRIPTION'], rows)}\n`);
  return 0;
}
