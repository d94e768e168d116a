/**
 * `bnity mcp list` (and `mcp status` without a name): the supervised servers, as a table
 * for people or `--json` for scripts. Asks the running service; with none, lists the
 * config file's servers as `stopped`.
 * @module
 */
import type { ServerStatus } from '../hub/server-status.js';
import { formatTable } from './format-table.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

/** What a row needs; the file alone gives no more than this. */
type Row = Pick<ServerStatus, 'name' | 'transport' | 'state' | 'attempt' | 'toolCount' | 'pid' | 'lastError'>;

/** Run `bnity mcp list`. */
export async function mcpListCommand(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const { value: servers } = await serviceOrFile<Row[]>(
    target,
    async () => (await target.client.get<{ servers: ServerStatus[] }>('/api/servers')).servers,
    async () => {
      const path = target.configPath();
      const config = await (await import('../config/load-config.js')).loadConfig(path, env);
      const value = Object.entries(config.mcpServers).map(([name, s]) => ({
        name,
        transport: s.transport,
        state: 'stopped' as ServerStatus['state'],
        attempt: 0,
        toolCount: 0,
        pid: null,
        lastError: null,
      }));
      return { value, note: `showing ${path}` };
    },
  );
  if (target.json) {
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
