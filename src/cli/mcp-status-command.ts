/**
 * `bnity mcp status NAME`: one server in detail (state, attempt, next retry, last error,
 * latency, counts, pid) and its last stderr lines. With no service, what the config file
 * says of it.
 * @module
 */
import { UnknownServerError } from '../errors.js';
import type { ServerStatus } from '../hub/server-status.js';
import { parseCount } from './parse-values.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { serviceOrFile } from './service-or-file.js';

type Detail = { server: Partial<Omit<ServerStatus, 'state'>> & { name: string; state: string }; stderr: string[] };

/** Run `bnity mcp status NAME`. */
export async function mcpStatusCommand(
  name: string,
  flags: TargetFlags & { lines: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const lines = parseCount(flags.lines, '--lines');
  const target = await resolveTarget(flags, env);
  const path = `/api/servers/${encodeURIComponent(name)}`;
  const { value } = await serviceOrFile<Detail>(
    target,
    async () => {
      const { server } = await target.client.get<{ server: ServerStatus }>(path);
      const log = await target.client.get<{ lines: string[] }>(`${path}/stderr?tail=${lines}`);
      return { server, stderr: log.lines.slice(-lines) };
    },
    async () => {
      const file = target.configPath();
      const entry = (await (await import('../config/load-config.js')).loadConfig(file, env)).mcpServers[name];
      if (!entry) throw new UnknownServerError(name);
      const server = { name, transport: entry.transport, state: 'stopped', enabled: entry.enabled };
      return { value: { server, stderr: [] }, note: `showing ${file}` };
    },
  );
  if (target.json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(describeServer(value));
  return 0;
}

/** The status as aligned `label  value` lines, then the stderr lines indented. */
function describeServer({ server: s, stderr }: Detail): string {
  const since = s.connectedAt ? ` since ${s.connectedAt}` : '';
  const why = s.disabledReason ? ` (${s.disabledReason})` : '';
  const rows: [string, string | null | undefined][] = [
    ['name', s.name],
    ['state', `${s.state}${since}${why}`],
    ['transport', s.transport],
    ['attempt', s.attempt === undefined ? undefined : String(s.attempt)],
    ['next retry', s.nextRetryAt ? `${s.nextRetryAt} (in ${Math.round((s.nextDelayMs ?? 0) / 100) / 10} s)` : null],
    ['last error', s.lastError],
    ['latency', s.pingLatencyMs == null ? null : `${s.pingLatencyMs} ms (pinged ${s.lastPingAt})`],
    [
      'offers',
      s.toolCount === undefined
        ? undefined
        : `${s.toolCount} tools, ${s.resourceCount} resources, ${s.resourceTemplateCount} templates, ${s.promptCount} prompts`,
    ],
    ['pid', s.pid == null ? null : String(s.pid)],
    [
      'dropped',
      // Notifications over its notificationRate (issue 17); a file-only status has none.
      s.droppedNotifications
        ? `${s.droppedNotifications} notifications${s.flooding ? ' (flooding now)' : ''}`
        : undefined,
    ],
  ];
  const shown = rows.filter(([, v]) => v !== undefined).map(([k, v]) => `${k.padEnd(11)} ${v ?? '-'}`);
  const log =
    stderr.length > 0 ? `stderr (last ${stderr.length} lines):\n${stderr.map((l) => `  ${l}`).join('\n')}\n` : '';
  return `${shown.join('\n')}\n${log}`;
}
