/**
 * `completion/complete` (G6, X4, X7): a prompt reference goes to the prompt's owner under
 * its own name, a resource reference to the owner of that template (or URI) with the
 * upstream's own; the values come back sanitized.
 * @module
 */
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { NotInViewError } from '../../errors.js';
import { botsFor, completeBotPrompt } from '../bots/index.js';
import { andThen, type Outcome, relayRouted } from '../relay/index.js';
import type { SessionContext } from '../session/index.js';
import type { ServedView } from '../views/index.js';
import type { CallPath } from './call-path.js';
import { finishRequest } from './finish-request.js';
import { sanitizeUpstreamText } from './sanitize-requests.js';

type Ref = CompleteRequest['params']['ref'];

/** Complete an argument of a prompt or resource template of the caller's view. */
export async function complete(
  path: CallPath,
  ctx: SessionContext,
  params: CompleteRequest['params'],
): Promise<CompleteResult> {
  const started = performance.now();
  const served = path.views.view(ctx.session.spec);
  const routed = routeRef(served, params.ref);
  const ref = params.ref;
  // A prompt outside the view: a bot's skill served to this caller, if the bots have it (G8).
  if (!routed.ok && ref.type === 'ref/prompt') {
    const bots = botsFor(path, ctx.session, served, 'prompts', ref.name);
    if (bots) return completeBotPrompt(path, bots, ctx, ref.name, params, routed.error as Error);
  }
  const relayed = await relayRouted(path, ctx, routed, (upstream, options, route) =>
    upstream.complete({ ...params, ref: route.ref }, options),
  );
  // Completion values are upstream text the agent may show or send on (X4).
  const outcome = andThen(relayed, ({ answer }) => ({
    ...answer,
    completion: { ...answer.completion, values: answer.completion.values.map((v) => sanitizeUpstreamText(v, 500)) },
  }));
  const fields = {
    eventType: 'completion',
    serverName: routed.ok ? routed.value.server : null,
    toolName: ref.type === 'ref/prompt' ? ref.name : ref.uri,
    input: params,
  };
  return finishRequest(path, ctx, started, fields, outcome);
}

/** The owner of a completion reference, and the reference as the upstream names it. */
function routeRef(served: ServedView, ref: Ref): Outcome<{ server: string; ref: Ref }> {
  if (ref.type === 'ref/prompt') {
    const route = served.view.prompt(ref.name);
    return route
      ? { ok: true, value: { server: route.server, ref: { ...ref, name: route.name } } }
      : { ok: false, error: new NotInViewError('prompt', ref.name) };
  }
  const template = served.view.template(ref.uri);
  if (template) return { ok: true, value: { server: template.server, ref: { ...ref, uri: template.uriTemplate } } };
  const resource = served.view.resource(ref.uri);
  return resource
    ? { ok: true, value: { server: resource.server, ref: { ...ref, uri: resource.uri } } }
    : { ok: false, error: new NotInViewError('resource', ref.uri) };
}
