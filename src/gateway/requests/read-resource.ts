/**
 * `resources/read` (G2, X4, X7): route the URI in the caller's view, relay it to the owner
 * with the upstream's URI, sanitize the text contents and give them back under public URIs.
 * A bot's activity URI is the gateway's own (serve-bot-activity.ts).
 * @module
 */
import type { ReadResourceRequest, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { activityOf, readBotActivity } from '../bots/index.js';
import { andThen, relayRouted } from '../relay/index.js';
import { requestLog, type SessionContext } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { finishSanitized } from './finish-request.js';
import { routeResource } from './route-request.js';

/** Read the resource `params.uri` of the caller's view. */
export async function readResource(
  path: CallPath,
  ctx: SessionContext,
  params: ReadResourceRequest['params'],
): Promise<ReadResourceResult> {
  const activity = activityOf(path, ctx.session, params.uri);
  if (activity) return readBotActivity(path, ctx, activity, params);
  const started = performance.now();
  const routed = routeResource(path.views.view(ctx.session.spec), params.uri);
  const relayed = await relayRouted(path, ctx, routed, (upstream, options, route) =>
    upstream.readResource({ ...params, uri: route.uri }, options),
  );
  const outcome = andThen(relayed, ({ route, answer }) => publicResult(path, ctx, route.server, answer));
  const fields = {
    eventType: 'resource_read',
    serverName: routed.ok ? routed.value.server : null,
    toolName: params.uri,
    input: params,
  };
  return finishSanitized(path, ctx, started, fields, outcome);
}

/** The text sanitized (X4), and every URI named as the agent sees it in its view now. */
function publicResult(
  path: CallPath,
  ctx: SessionContext,
  server: string,
  result: ReadResourceResult,
): { result: ReadResourceResult; sanitized: boolean } {
  const { result: safe, sanitized } = path.sanitizer.resourceResult(server, result, () => requestLog(path, ctx));
  const current = path.views.view(ctx.session.spec).view;
  const contents = safe.contents.map((c) => ({ ...c, uri: current.publicUri(server, c.uri) }));
  return { result: { ...safe, contents }, sanitized };
}
