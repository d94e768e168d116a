/**
 * `resources/subscribe` and `resources/unsubscribe` (G6, X7): the session's subscription is
 * recorded in the registry with where it routes; a shared connection is told only by the
 * first subscriber and the last to leave, a session's own connection every time. A bot's
 * activity URI is held by the session alone and told to nobody (serve-bot-activity.ts).
 * @module
 */
import type { SubscribeRequest, UnsubscribeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ACTIVITY_OWNER, activityOf, subscribeBotActivity } from '../bots/index.js';
import { relayRequest } from '../relay/index.js';
import type { SessionContext, SubscribedResource } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { finishRequest, wireErrorOf } from './finish-request.js';
import { routeResource } from './route-request.js';

const isShared = (path: CallPath, server: string) => path.config().mcpServers[server]?.scope !== 'session';

/** Subscribe the session to `params.uri` of its view. */
export async function subscribeResource(
  path: CallPath,
  ctx: SessionContext,
  params: SubscribeRequest['params'],
): Promise<Record<string, never>> {
  const activity = activityOf(path, ctx.session, params.uri);
  if (activity) {
    await subscribeBotActivity(path, ctx.session, activity, params.uri).catch((error: unknown) => {
      throw wireErrorOf(path, ctx, error);
    });
    return {};
  }
  const routed = routeResource(path.views.view(ctx.session.spec), params.uri);
  if (!routed.ok) throw wireErrorOf(path, ctx, routed.error);
  const shared = isShared(path, routed.value.server);
  const action = path.sessions.subscribe(ctx.session, params.uri, routed.value, shared);
  if (action === 'none') return {};
  const told = await tell(path, ctx, routed.value, 'resource_subscribe', params);
  // An upstream that refused keeps nobody subscribed: the next subscriber asks it again.
  if (!told.ok) path.sessions.unsubscribe(ctx.session, params.uri, shared);
  return finishRequest(path, ctx, told.started, told.fields, told);
}

/** Drop the session's subscription to `params.uri` (a URI it does not hold is no error). */
export async function unsubscribeResource(
  path: CallPath,
  ctx: SessionContext,
  params: UnsubscribeRequest['params'],
): Promise<Record<string, never>> {
  const held = ctx.session.subscriptions.get(params.uri);
  if (!held) return {};
  if (held.server === ACTIVITY_OWNER) {
    path.sessions.unsubscribe(ctx.session, params.uri, false);
    return {};
  }
  const dropped = path.sessions.unsubscribe(ctx.session, params.uri, isShared(path, held.server));
  if (!dropped || dropped.action === 'none') return {};
  const told = await tell(path, ctx, dropped.route, 'resource_unsubscribe', params);
  return finishRequest(path, ctx, told.started, told.fields, told);
}

/** Relay the (un)subscription to the owner with its own URI. */
async function tell(
  path: CallPath,
  ctx: SessionContext,
  route: SubscribedResource,
  eventType: 'resource_subscribe' | 'resource_unsubscribe',
  params: SubscribeRequest['params'],
) {
  const started = performance.now();
  const relayed = await relayRequest(path, ctx, route.server, (upstream, options) =>
    eventType === 'resource_subscribe'
      ? upstream.subscribe(route.uri, options)
      : upstream.unsubscribe(route.uri, options),
  );
  const fields = { eventType, serverName: route.server, toolName: params.uri, input: params };
  return relayed.ok
    ? { ok: true as const, value: {} as Record<string, never>, started, fields }
    : { ok: false as const, error: relayed.error, started, fields };
}
