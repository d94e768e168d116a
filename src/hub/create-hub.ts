/**
 * The hub: the one thing the rest of the code sees of supervision. It puts configs in
 * force, runs the supervisor actor with real upstream adapters, bridges its events onto
 * the bus, answers status queries from actor snapshots, and lends connected sessions
 * through the {@link UpstreamSession} port (SPEC S1–S5).
 * @module
 */
import type { Logger } from 'pino';
import { type AnyActorRef, createActor } from 'xstate';
import type { ConnectionContext, ServerEvent } from '../../machines/index.js';
import { childId, connectionMachine, diffServers, serverOfChild, supervisorMachine } from '../../machines/index.js';
import type { EventBus } from '../bus/create-event-bus.js';
import { type AppConfig, ConfigRestSchema, type ServerConfig } from '../config/schema.js';
import { UnknownServerError } from '../errors.js';
import type { HubEvent } from '../events/hub-event.js';
import type { NotificationLimits } from '../upstream/notification-limits.js';
import { isAlive } from '../upstream/process-tree.js';
import { createStderrLog, type StderrSink } from '../upstream/stderr-log.js';
import type { LiveUpstream, UpstreamSession } from '../upstream/types.js';
import { connectionSpecs } from './connection-spec.js';
import { logServerEvent } from './log-server-event.js';
import { type PublicState, type ServerStatus, topState, toServerStatus } from './server-status.js';
import type { PingTraces } from './trace-ping.js';
import { createUpstreamActors, type OpenUpstream } from './upstream-actors.js';

/**
 * Where the config in force is kept. `main.ts` makes one and hands its `get` to every part
 * that reads the config; only `hub.applyConfig` replaces it.
 */
export type ConfigCell = { get(): AppConfig; set(next: AppConfig): void };

/** What the hub needs; `main.ts` builds the real ones, tests their own. */
export type HubDeps = {
  log: Logger;
  bus: EventBus<HubEvent>;
  open: OpenUpstream;
  /** The config in force (default: a cell of its own, empty until the first `applyConfig`). */
  config?: ConfigCell;
  now?: () => number;
  random?: () => number;
  /** Each server's notification floods (issue 17), shown in its status and forgotten with it. */
  floods?: Pick<NotificationLimits, 'status' | 'forget'> | undefined;
  /** Tracing on (issue 21): health pings that fail or are slow become spans. */
  traces?: PingTraces | null | undefined;
};

/** The supervision API seen by http/, gateway/ and cli/. */
export type Hub = {
  /**
   * Put `config` in force and reconcile the running connections with it; only differences
   * are touched (S3). Every application after the first publishes `config_applied`.
   */
  applyConfig(config: AppConfig, options?: { file?: string | null }): void;
  listServers(): ServerStatus[];
  getServer(name: string): ServerStatus;
  connect(name: string): void;
  disconnect(name: string): void;
  /** Lends the session of a server in state `connected` (never the SDK client), or null. */
  upstream(name: string): UpstreamSession | null;
  /** The stderr lines of the server's stdio children, newest last, across restarts. */
  stderr(name: string): readonly string[];
  /** Stop every actor and wait until every upstream session and process tree has ended. */
  stop(): Promise<void>;
};

/** The config before the first one is applied: the schema's defaults and no servers. */
const EMPTY_CONFIG: AppConfig = { ...ConfigRestSchema.parse({}), mcpServers: {} };

/** A config cell of the hub's own, for callers that do not share one. */
function ownCell(): ConfigCell {
  let current = EMPTY_CONFIG;
  return {
    get: () => current,
    set: (next) => {
      current = next;
    },
  };
}

/** Create and start the hub. It serves status even when every upstream is down. */
export function createHub({
  log,
  bus,
  open,
  config = ownCell(),
  now = Date.now,
  random = Math.random,
  floods,
  traces,
}: HubDeps): Hub {
  let applied = false;
  const live = new Map<string, LiveUpstream>();
  const stderrLogs = new Map<string, StderrSink>();
  const retryAt = new Map<string, number>();
  const pending = new Set<Promise<unknown>>();
  const supervisorLog = log.child({ mod: 'supervisor' });

  const actors = createUpstreamActors({
    open,
    now,
    traces,
    log: supervisorLog,
    registry: {
      opened: (upstream) => {
        live.set(upstream.serverId, upstream);
      },
      stderrOf: (serverId) => {
        let log = stderrLogs.get(serverId);
        if (!log) {
          log = createStderrLog(config.get().logs.stderrLines);
          stderrLogs.set(serverId, log);
        }
        return log;
      },
      closed: (upstream) => {
        if (live.get(upstream.serverId) === upstream) live.delete(upstream.serverId);
      },
      track: (work) => {
        pending.add(work);
        void work.finally(() => pending.delete(work));
      },
    },
  });
  const machine = supervisorMachine.provide({ actors: { connection: connectionMachine.provide({ actors }) } });
  const supervisor = createActor(machine, { input: { random } });

  supervisor.on('*', (event: ServerEvent) => {
    if (event.type === 'reconnecting') retryAt.set(event.server, now() + event.delayMs);
    if (event.type === 'removed') {
      retryAt.delete(event.server);
      stderrLogs.delete(event.server);
      floods?.forget(event.server);
    }
    logServerEvent(supervisorLog, event);
    bus.publish(event);
  });
  supervisor.subscribe({
    error: (error) => supervisorLog.error({ err: error }, 'supervisor stopped on an error'),
  });
  supervisor.start();

  const children = (): Map<string, AnyActorRef> => {
    const map = new Map<string, AnyActorRef>();
    for (const [id, ref] of Object.entries(supervisor.getSnapshot().children)) {
      const name = serverOfChild(id);
      if (name && ref) map.set(name, ref as AnyActorRef);
    }
    return map;
  };

  const child = (name: string): AnyActorRef | undefined =>
    supervisor.getSnapshot().children[childId(name)] as AnyActorRef | undefined;

  const statusOf = (name: string, ref: AnyActorRef | undefined): ServerStatus | null => {
    const server = config.get().mcpServers[name];
    if (!server || !ref) return null;
    const snapshot = ref.getSnapshot();
    const state = topState(snapshot.value);
    if (state === 'removed' || snapshot.status !== 'active') return null;
    const status = toServerStatus(
      name,
      server,
      state as PublicState,
      snapshot.context as ConnectionContext,
      retryAt.get(name) ?? null,
      floods?.status(name),
    );
    // A stdio child runs while it connects (its initialize, a slow start): its pid then too.
    const spawned = state === 'connecting' ? (stderrLogs.get(name)?.startedPid() ?? null) : null;
    return spawned !== null && status.pid === null && isAlive(spawned) ? { ...status, pid: spawned } : status;
  };

  const requireServer = (name: string): ServerConfig => {
    const server = config.get().mcpServers[name];
    if (!server) throw new UnknownServerError(name);
    return server;
  };

  return {
    applyConfig(next, { file = null } = {}) {
      const previous = config.get();
      config.set(next);
      // Fields only views read (allowed tools, budgets) do not restart a connection.
      supervisor.send({ type: 'config.apply', servers: connectionSpecs(next.mcpServers) });
      if (!applied) {
        applied = true;
        return;
      }
      // Bots, permissions and policies may have changed too: views are checked again (G5).
      const diff = diffServers(next.mcpServers, previous.mcpServers);
      supervisorLog.info({ path: file, added: diff.add, removed: diff.remove, changed: diff.update }, 'config applied');
      bus.publish({
        type: 'config_applied',
        server: null,
        file,
        added: diff.add,
        removed: diff.remove,
        changed: diff.update,
      });
    },
    listServers() {
      const refs = children();
      return Object.keys(config.get().mcpServers).flatMap((name) => statusOf(name, refs.get(name)) ?? []);
    },
    getServer(name) {
      requireServer(name);
      const status = statusOf(name, child(name));
      if (!status) throw new UnknownServerError(name);
      return status;
    },
    connect(name) {
      requireServer(name);
      supervisor.send({ type: 'server.connect', server: name });
    },
    disconnect(name) {
      requireServer(name);
      supervisor.send({ type: 'server.disconnect', server: name });
    },
    // Only a connected server's session is offered: one on its way out is not.
    // On every relayed call: read the state directly, without building a status.
    upstream: (name) => (topState(child(name)?.getSnapshot().value) === 'connected' ? (live.get(name) ?? null) : null),
    stderr: (name) => stderrLogs.get(name)?.lines() ?? [],
    async stop() {
      supervisor.stop();
      // Stopping ran every watcher's cleanup, which started closing the sessions.
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await Promise.allSettled([...live.values()].map((upstream) => upstream.close()));
      live.clear();
    },
  };
}
