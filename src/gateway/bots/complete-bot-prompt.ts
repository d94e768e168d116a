/**
 * `completion/complete` of an argument of a bot's skill prompt (G8, B3): the values the
 * skill declares, from the bots' port, audited like any completion.
 * @module
 */
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { UnknownBotToolError } from '../../errors.js';
import type { Outcome } from '../relay/index.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import { finishRequest } from '../requests/index.js';
import type { SessionContext } from '../session/index.js';

/** Complete `params.argument` of skill prompt `name`; `notInView` is the refusal when the bots have none. */
export async function completeBotPrompt(
  path: CallPath,
  bots: BotSurface,
  ctx: SessionContext,
  name: string,
  params: CompleteRequest['params'],
  notInView: Error,
): Promise<CompleteResult> {
  const started = performance.now();
  const access = ctx.session.botAccess;
  let outcome: Outcome<CompleteResult>;
  try {
    if (!access) throw notInView;
    outcome = { ok: true, value: { completion: await bots.prompts.complete(name, params.argument, access) } };
  } catch (error) {
    outcome = { ok: false, error: error instanceof UnknownBotToolError ? notInView : error };
  }
  const fields = { eventType: 'completion', serverName: null, toolName: name, input: params };
  return finishRequest(path, ctx, started, fields, outcome);
}
