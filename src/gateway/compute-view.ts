/**
 * A session's view, from the live catalogs of the servers it may see (SPEC G2, G3).
 * @module
 */
import type { Hub } from '../hub/create-hub.js';
import { type AggregatedView, buildView } from './aggregate.js';
import { effectiveServers } from './effective-servers.js';
import type { GatewaySession } from './gateway-session.js';

/** Servers the session may see (connected or not); none when its server or bot left the config. */
export function viewServers(hub: Hub, session: GatewaySession): string[] {
  try {
    return effectiveServers(hub.config(), session.spec);
  } catch {
    return [];
  }
}

/**
 * What the session lists and how its names route, from the servers connected now. Tools for
 * which `hidden` answers true (quarantined by the pin guard, X5) are neither listed nor routed.
 */
export function computeView(
  hub: Hub,
  session: GatewaySession,
  hidden?: (server: string, tool: string) => boolean,
): AggregatedView {
  const config = hub.config();
  const bot = session.spec.kind === 'bot' ? config.bots[session.spec.slug] : undefined;
  const servers = viewServers(hub, session).flatMap((server) => {
    const serverConfig = config.mcpServers[server];
    const upstream = hub.upstream(server);
    if (!serverConfig || !upstream) return [];
    const permission = bot?.toolPermissions[server];
    const full = upstream.catalog();
    const catalog = hidden ? { ...full, tools: full.tools.filter((t) => !hidden(server, t.name)) } : full;
    return [{ server, config: serverConfig, catalog, ...(permission ? { permission } : {}) }];
  });
  return buildView({ naming: session.naming, servers });
}
