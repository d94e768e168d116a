/**
 * `bnity cluster`: the fleet view (`GET /api/cluster`, ADR 041) from any running replica:
 * each replica with its status, leadership, last heartbeat, version and address, then each
 * server's state on each replica. Needs a running service (the view lives in its database).
 * @module
 */
import type { ClusterView } from '../cluster/index.js';
import { formatTable } from './format-table.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';

/** Run `bnity cluster`. */
export async function clusterCommand(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const view = await target.client.get<ClusterView>('/api/cluster');
  process.stdout.write(target.json ? `${JSON.stringify(view, null, 2)}\n` : describeCluster(view));
  return 0;
}

/** The fleet as two tables: replicas, then servers per replica. */
export function describeCluster(view: ClusterView): string {
  const replicas = formatTable(
    ['REPLICA', 'STATUS', 'LEADER', 'HEARTBEAT', 'VERSION', 'ADDRESS'],
    view.replicas.map((r) => [
      r.self ? `${r.id} *` : r.id,
      r.status,
      r.leader ? 'yes' : '',
      `${Math.round(r.heartbeatAgeMs / 100) / 10} s ago`,
      r.version,
      r.address ?? '-',
    ]),
  );
  const rows = view.replicas.flatMap((r) =>
    r.servers.map((s) => [
      r.id,
      s.name,
      s.state,
      s.pid === null ? '-' : String(s.pid),
      String(s.toolCount),
      s.lastError ?? '',
    ]),
  );
  const servers =
    rows.length > 0 ? `\n\n${formatTable(['REPLICA', 'SERVER', 'STATE', 'PID', 'TOOLS', 'LAST ERROR'], rows)}` : '';
  return `${view.database === 'sqlite' ? 'one replica (SQLite)' : 'PostgreSQL fleet'}; * answered\n\n${replicas}${servers}\n`;
}
