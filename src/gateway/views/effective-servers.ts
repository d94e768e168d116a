/**
 * Which configured servers a gateway view aggregates (SPEC G1, G3; our reading of C1/B2).
 *
 * - `all` (`/mcp`): every configured server, in config order.
 * - `server` (`/mcp/servers/{name}`): that one server; UnknownServerError if not configured.
 * - `bot` (`/mcp/bots/{slug}`): every configured server that is not opt-in, minus the bot's
 *   `removedServers`, plus the bot's `additionalServers`; config order. A server is opt-in when
 *   ANY bot lists it in `additionalServers`: it is then only in `all` and in the views of the bots
 *   that add it, which is what gives `additionalServers` a meaning. A server a bot both adds and
 *   removes is removed (the narrower choice wins, as deny wins for tools). Names in either list
 *   that are not configured are ignored. A slug with no `bots` entry (a bot of the registry
 *   alone) gets the default view: every server that is not opt-in (ADR 012). Whether such a
 *   bot exists at all is the gateway's question when a session opens, not this function's.
 *
 * Disabled servers are included: whether a server is connected is the gateway's business.
 * @module
 */
import type { AppConfig } from '../../config/schema.js';
import { UnknownServerError } from '../../errors.js';

/** Which view an endpoint serves. */
export type ViewSpec = { kind: 'all' } | { kind: 'server'; server: string } | { kind: 'bot'; slug: string };

/** Names of the configured servers in `view`, in config order. */
export function effectiveServers(config: Pick<AppConfig, 'mcpServers' | 'bots'>, view: ViewSpec): string[] {
  const configured = Object.keys(config.mcpServers);
  switch (view.kind) {
    case 'all':
      return configured;
    case 'server':
      if (!Object.hasOwn(config.mcpServers, view.server)) throw new UnknownServerError(view.server);
      return [view.server];
    case 'bot': {
      const bot = Object.hasOwn(config.bots, view.slug) ? config.bots[view.slug] : undefined;
      const optIn = new Set(Object.values(config.bots).flatMap((b) => b.additionalServers));
      const added = new Set(bot?.additionalServers);
      const removed = new Set(bot?.removedServers);
      return configured.filter((name) => !removed.has(name) && (added.has(name) || !optIn.has(name)));
    }
  }
}
