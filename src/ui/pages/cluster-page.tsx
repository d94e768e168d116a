/**
 * The fleet (cluster mode, SPEC 9, `GET /api/cluster`): every replica the database knows, with
 * its status (alive, stale: no heartbeat lately, stopped), which one leads the run-once jobs,
 * its version and address, its last heartbeat, and each server as that replica last wrote it
 * (each replica runs its own stdio processes and upstream connections). Any replica answers
 * the same; the one that did is marked. Replicas write their heartbeats to the database, not
 * to this page's event stream, so the page is read when shown and on **Refresh**.
 * @module
 */
import type { ApiClient } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import type { ClusterReplica } from '../operator-api.js';
import { useLoad } from '../use-load.js';

/** A status in words with a mark, so it reads without colour. */
const STATUS: Readonly<Record<ClusterReplica['status'], string>> = {
  alive: '● alive',
  stale: '△ stale (no heartbeat lately)',
  stopped: '○ stopped',
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s ago`;

/** One replica's row. */
function ReplicaRow({ replica }: { replica: ClusterReplica }) {
  return (
    <tr data-replica={replica.id} data-status={replica.status}>
      <th scope="row">
        <code>{replica.id}</code>
        {replica.self && <div class="note">this page's replica</div>}
        {replica.leader && <div class="note">leader (run-once jobs)</div>}
      </th>
      <td class={`replica-${replica.status}`}>{STATUS[replica.status]}</td>
      <td data-label="version">{replica.version}</td>
      <td data-label="address">{replica.address ?? '–'}</td>
      <td data-label="heartbeat">
        {replica.status === 'stopped' && replica.stoppedAt
          ? `stopped ${new Date(replica.stoppedAt).toLocaleString()}`
          : seconds(replica.heartbeatAgeMs)}
        <div class="note">up since {new Date(replica.startedAt).toLocaleString()}</div>
      </td>
      <td data-label="servers">
        {replica.servers.length === 0 ? (
          'none'
        ) : (
          <ul class="replica-servers">
            {replica.servers.map((server) => (
              <li key={server.name} data-server={server.name} data-state={server.state}>
                {server.name}: {server.state}
                {server.pid !== null && ` · pid ${server.pid}`} · {server.toolCount} tools
                {server.lastError && <div class="error-cell">{server.lastError}</div>}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** The page. */
export function ClusterPage({ api }: { api: ApiClient }) {
  const cluster = useLoad(() => api.cluster(), []);
  // What this replica's stream says may change its own row (its servers); the others' only a read shows.
  useLiveEvent((event) => event.type === 'config_applied' || event.type === 'connected', cluster.reload);
  const data = cluster.data;
  return (
    <>
      <ErrorNote error={cluster.error && `Could not read the fleet: ${cluster.error}`} />
      {data && (
        <p class="summary">
          {data.database === 'postgres'
            ? `${data.replicas.filter((r) => r.status === 'alive').length} of ${data.replicas.length} replicas alive on one PostgreSQL database; leader ${data.leader ?? 'none'}; this page is served by ${data.replica}.`
            : `This service runs alone (SQLite), not as a fleet: replica ${data.replica}.`}
        </p>
      )}
      <button type="button" onClick={cluster.reload}>
        Refresh
      </button>
      {data && (
        <DataTable
          name="replicas"
          caption="Replicas of the fleet"
          columns={['replica', 'status', 'version', 'address', 'last heartbeat', 'servers on it']}
        >
          {data.replicas.map((replica) => (
            <ReplicaRow key={replica.id} replica={replica} />
          ))}
        </DataTable>
      )}
    </>
  );
}
