/**
 * `bnity mcp list|status`: the supervised servers, as a table for people or `--json`
 * for scripts. Asks the running service; with none, lists the config file's servers.
 * @module
 */
import { loadConfig } from '../config/load-config.js';
import { resolveConfigPath, resolveHome } from '../config/resolve-paths.js';
import type { ServerStatus } from '../hub/server-status.js';
import { approveCommand } from './approve-command.js';
import { budgetCommand } from './budget-command.js';
import { credentialCommand } from './credential-command.js';
import { formatTable } from './format-table.js';
import { mcpServeCommand } from './mcp-serve-command.js';
import { parseFlags } from './parse-flags.js';
import { createServiceClient, isUnreachable } from './service-client.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity mcp list|status [--json] [--url URL] [--home DIR] [--config PATH]
       bnity mcp serve --stdio [--bot SLUG | --server NAME] [--config PATH] [--home DIR]
       bnity mcp credential set|list|remove [NAME] [--home DIR]
       bnity mcp budget reset SERVER [--url URL] [--home DIR]
       bnity mcp approve SERVER TOOL [--url URL] [--home DIR] [--json]`;

/** Run `bnity mcp …`. */
export async function mcpCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    process.stdout.write(`${HELP}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'serve') return mcpServeCommand(rest);
  if (sub === 'credential') return credentialCommand(rest);
  if (sub === 'budget') return budgetCommand(rest);
  if (sub === 'approve') return approveCommand(rest);
  if (sub !== 'list' && sub !== 'status')
    throw new UsageError(`unknown subcommand "mcp ${sub}": run 'bnity mcp --help'`);
  const values = parseFlags(
    rest,
    { json: { type: 'boolean' }, url: { type: 'string' }, home: { type: 'string' }, config: { type: 'string' } },
    'mcp',
  );
  const home = resolveHome(values.home ? { home: values.home } : {});
  const client = await createServiceClient({ home, ...(values.url ? { url: values.url } : {}) });
  let servers: Pick<ServerStatus, 'name' | 'transport' | 'state' | 'attempt' | 'toolCount' | 'pid' | 'lastError'>[];
  try {
    servers = (await client.get<{ servers: ServerStatus[] }>('/api/servers')).servers;
  } catch (error) {
    if (!isUnreachable(error)) throw error;
    // No service running: show what the config file would start.
    const { path } = resolveConfigPath({ home, ...(values.config ? { config: values.config } : {}) });
    const config = await loadConfig(path);
    servers = Object.entries(config.mcpServers).map(([name, s]) => ({
      name,
      transport: s.transport,
      state: 'stopped' as ServerStatus['state'],
      attempt: 0,
      toolCount: 0,
      pid: null,
      lastError: null,
    }));
    if (!values.json) process.stderr.write(`bnity: no service at ${client.baseUrl}; showing ${path}\n`);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ servers }, null, 2)}\n`);
    return 0;
  }
  const rows = servers.map((s) => [
    s.name,
    s.transport,
    s.state,
    String(s.attempt),
    String(s.toolCount),
    s.pid === null ? '-' : String(s.pid),
    s.lastError ?? '',
  ]);
  process.stdout.write(
    `${formatTable(['NAME', 'TRANSPORT', 'STATE', 'ATTEMPT', 'TOOLS', 'PID', 'LAST ERROR'], rows)}\n`,
  );
  return 0;
}
