/**
 * `logging/setLevel` (G6): the level reaches every upstream in the caller's view that is
 * connected now and declares `logging` (for `scope: "session"` servers, the session's own
 * connection if open; those opened later get it too). Errors are ignored: the agent gets `{}`.
 * @module
 */
import type { SetLevelRequest } from '@modelcontextprotocol/sdk/types.js';
import { connectionKey } from '../relay/call-tracker.js';
import type { SessionContext } from '../session/index.js';
import type { CallPath } from './call-path.js';

/** Set the session's logging level and relay it. */
export async function setLevel(
  path: CallPath,
  ctx: SessionContext,
  params: SetLevelRequest['params'],
): Promise<Record<string, never>> {
  const session = ctx.session;
  session.loggingLevel = params.level;
  const config = path.config();
  await Promise.allSettled(
    path.views.view(session.spec).servers.map(async (server) => {
      const scope = config.mcpServers[server]?.scope;
      if (!scope) return;
      const upstream = scope === 'session' ? path.upstreams.peek(session, server) : path.hub.upstream(server);
      if (!upstream?.capabilities()?.logging) return;
      const key = connectionKey(server, scope === 'session' ? session.id : null);
      await path.tracker.run({ key, context: ctx, transport: upstream.transport }, () =>
        upstream.setLoggingLevel(params.level),
      );
    }),
  );
  return {};
}
