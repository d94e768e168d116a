/**
 * A view, from the live catalogs of the servers it may see (SPEC G2, G3).
 * @module
 */
import type { AppConfig } from '../../config/schema.js';
import type { Hub } from '../../hub/create-hub.js';
import { type AggregatedView, buildView } from './aggregate.js';
import { effectiveServers, type ViewSpec } from './effective-servers.js';
import type { Naming } from './public-names.js';

/** One server's endpoint keeps the upstream's own names; every other view prefixes them. */
export function namingOf(spec: ViewSpec): Naming {
  return spec.kind === 'server' ? 'identity' : 'prefixed';
}

/** Servers the view may see (connected or not); none when its server or bot left the config. */
export function viewServers(config: AppConfig, spec: ViewSpec): string[] {
  try {
    return effectiveServers(config, spec);
  } catch {
    return [];
  }
}

/**
 * What the view lists and how its names route, from the servers connected now. Tools for
 * which `hidden` answers true (quarantined by the pin guard, X5) are neither listed nor routed.
 */
export function computeView(
  config: AppConfig,
  hub: Pick<Hub, 'upstream'>,
  spec: ViewSpec,
  hidden?: (server: string, tool: string) => boolean,
): AggregatedView {
  const bot = spec.kind === 'bot' ? config.bots[spec.slug] : undefined;
  const servers = viewServers(config, spec).flatMap((server) => {
    const serverConfig = config.mcpServers[server];
    const upstream = hub.upstream(server);
    if (!serverConfig || !upstream) return [];
    const permission = bot?.toolPermissions[server];
    const full = upstream.catalog();
    const catalog = hidden ? { ...full, tools: full.tools.filter((t) => !hidden(server, t.name)) } : full;
    const overrides = serverConfig.toolOverrides;
    return [
      {
        server,
        config: serverConfig,
        catalog,
        ...(permission ? { permission } : {}),
        ...(overrides ? { overrides } : {}),
      },
    ];
  });
  return buildView({ naming: namingOf(spec), servers });
}
