/**
 * `resources/read` (G2, X4, X7): route the URI in the caller's view, relay it to the owner
 * with the upstream's URI, sanitize the text contents and give them back under public URIs.
 * @module
 */
import type { ReadResourceRequest, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallPath } from './call-path.js';
import { finishRequest } from './finish-request.js';
import { type Outcome, relayRequest } from './relay-request.js';
import { routeResource } from './route-request.js';
import type { SessionContext } from './session-context.js';

/** Read the resource `params.uri` of the caller's view. */
export async function readResource(
  path: CallPath,
  ctx: SessionContext,
  params: ReadResourceRequest['params'],
): Promise<ReadResourceResult> {
  const started = performance.now();
  const routed = routeResource(path.views.view(ctx.session.spec), params.uri);
  const outcome = routed.ok ? await relayRead(path, ctx, routed.value, params) : routed;
  const fields = {
    eventType: 'resource_read',
    serverName: routed.ok ? routed.value.server : null,
    toolName: params.uri,
    input: params,
  };
  return finishRequest(path, ctx, started, fields, outcome);
}

/** Relay the read with the upstream's URI; the text comes back sanitized (X4), under public URIs. */
async function relayRead(
  path: CallPath,
  ctx: SessionContext,
  route: { server: string; uri: string },
  params: ReadResourceRequest['params'],
): Promise<Outcome<ReadResourceResult>> {
  const relayed = await relayRequest(path, ctx, route.server, (upstream, options) =>
    upstream.readResource({ ...params, uri: route.uri }, options),
  );
  if (!relayed.ok) return relayed;
  const safe = path.sanitizer.resourceResult(route.server, relayed.value);
  // The view as it is after the relay: URIs are named as the agent sees them now.
  const current = path.views.view(ctx.session.spec).view;
  const contents = safe.contents.map((c) => ({ ...c, uri: current.publicUri(route.server, c.uri) }));
  return { ok: true, value: { ...safe, contents } };
}
