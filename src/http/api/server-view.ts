/**
 * The server object every `/api/servers` route answers with: the status of section 7, the
 * server's config entry with its secrets masked, what sampling it has spent (X6), and whether
 * its tool catalog churns (X5).
 * @module
 */
import type { AppConfig, ServerConfig } from '../../config/schema.js';
import { maskServerEntry } from '../../guard/mask-secrets.js';
import type { Hub } from '../../hub/create-hub.js';
import type { ServerStatus } from '../../hub/server-status.js';

/** Sampling spent per server (X6), and its reset. */
export type SamplingUsage = {
  used(server: string): number;
  reset(server: string): Promise<void>;
  /** Read the spend again where other replicas spend the same budgets (K4); absent or a no-op alone. */
  refresh?(): Promise<void>;
};

/** Whether a server's tool catalog churns (X5): its changes summarized once per window. */
export type CatalogChurn = { churning?(server: string): boolean };

/** A server as the API shows it. */
export type ServerView = Omit<ServerConfig, 'transport' | 'enabled' | 'samplingBudgetTokens'> &
  ServerStatus & {
    samplingUsedTokens: number;
    samplingBudgetTokens: number | null;
    catalogChurning: boolean;
    /** The replica whose connection this is (ADR 041: each replica runs its own); null when unnamed. */
    replica: string | null;
  };

/** Builds server objects from the hub's status and config. */
export function createServerViews(
  hub: Hub,
  config: () => AppConfig,
  sampling: SamplingUsage | undefined,
  churn?: CatalogChurn,
  replica: string | null = null,
) {
  const view = (status: ServerStatus): ServerView => {
    const server = config().mcpServers[status.name];
    const { transport: _transport, ...entry } = server ? maskServerEntry(server) : ({} as ServerConfig);
    return {
      ...(entry as Omit<ServerConfig, 'transport'>),
      ...status,
      samplingUsedTokens: sampling?.used(status.name) ?? 0,
      samplingBudgetTokens: server?.samplingBudgetTokens ?? null,
      catalogChurning: churn?.churning?.(status.name) ?? false,
      replica,
    };
  };
  return {
    /** One server; UnknownServerError when it is not configured. */
    one: (name: string): ServerView => view(hub.getServer(name)),
    all: (): ServerView[] => hub.listServers().map(view),
  };
}
