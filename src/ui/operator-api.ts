/**
 * The routes of `/api` for the operator's fleet-wide tasks, joined into the page's client
 * ({@link createApiClient} spreads them in): a bot's sampling spend reset, servers imported
 * from another client's config, the config in force, and the cluster's replicas. The
 * answers' types are written out here as the routes' zod schemas give them (those schemas
 * are not exported), checked against the routes by the browser tests; the fleet view's is
 * the service's own.
 * @module
 */
import type { ClusterView } from '../cluster/index.js';

/** `POST /api/bots/{slug}/sampling/reset`'s answer. */
export type BotSampling = { usedTokens: number; budgetTokens: number | null };

/** What `POST /api/servers/import` takes. */
export type ImportRequest = {
  servers: Record<string, Record<string, unknown>>;
  force: boolean;
};

/** What `POST /api/servers/import` did. */
export type ImportResult = {
  added: string[];
  skipped: string[];
  replaced: string[];
  renamed: { from: string; to: string }[];
  movedSecrets: { server: string; variable: string; credential: string }[];
  from: string | null;
};

/** `GET /api/config`: the config in force, secrets masked. */
export type EffectiveConfig = { file: string | null; version: number | null; config: Record<string, unknown> };

/** `GET /api/cluster`: the fleet (on SQLite, the one replica), as the service's own type says it. */
export type { ClusterReplica, ClusterServer } from '../cluster/index.js';

/** The client's senders, as `createApiClient` has them. */
type Senders = {
  call: <T>(method: string, url: string, body?: unknown) => Promise<T>;
  read: <T>(url: string) => Promise<T>;
};

/** The routes, over the client's own senders (its CSRF token, its shared reads). */
export function operatorRoutes({ call, read }: Senders) {
  return {
    resetBotSampling: (slug: string) =>
      call<BotSampling>('POST', `/api/bots/${encodeURIComponent(slug)}/sampling/reset`),
    importServers: (body: ImportRequest) => call<ImportResult>('POST', '/api/servers/import', body),
    effectiveConfig: () => read<EffectiveConfig>('/api/config'),
    cluster: () => read<ClusterView>('/api/cluster'),
  };
}
