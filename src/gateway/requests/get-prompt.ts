/**
 * `prompts/get` (G2, X4, X7): route the public prompt name in the caller's view, relay it
 * to the owner under its own name, sanitize the messages it expands to; a name outside the
 * view is a bot's skill when the session is served them.
 * @module
 */
import type { GetPromptRequest, GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { NotInViewError } from '../../errors.js';
import { botsFor, getBotPrompt } from '../bots/index.js';
import { andThen, relayRouted } from '../relay/index.js';
import { requestLog, type SessionContext } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { finishSanitized } from './finish-request.js';
import { MAX_CALLED_NAME, routeName } from './route-request.js';

/** Get the prompt `params.name` of the caller's view. */
export async function getPrompt(
  path: CallPath,
  ctx: SessionContext,
  params: GetPromptRequest['params'],
): Promise<GetPromptResult> {
  const started = performance.now();
  const served = path.views.view(ctx.session.spec);
  const routed = routeName(path.hub, served, 'prompt', params.name);
  // Not the view's: a bot's skill served to this caller, if the bots have it (G8).
  if (!routed.ok && routed.error instanceof NotInViewError) {
    const bots = botsFor(path, ctx.session, served, 'prompts', params.name);
    if (bots) return getBotPrompt(path, bots, ctx, params, routed.error);
  }
  const relayed = await relayRouted(path, ctx, routed, (upstream, options, route) =>
    upstream.getPrompt({ ...params, name: route.name }, options),
  );
  // The messages a prompt expands to are upstream text the model will read (X4).
  const outcome = andThen(relayed, ({ route, answer }) =>
    path.sanitizer.promptResult(route.server, route.name, answer, () => requestLog(path, ctx)),
  );
  const fields = {
    eventType: 'prompt_get',
    serverName: routed.ok ? routed.value.server : null,
    toolName: routed.ok ? routed.value.name : params.name.length <= MAX_CALLED_NAME ? params.name : null,
    input: params,
  };
  return finishSanitized(path, ctx, started, fields, outcome);
}
