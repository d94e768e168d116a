/**
 * `prompts/get` of a bot's skill (G8, B3): rendered by the bots' port for the session's
 * caller, audited like any prompt. A name the bots do not know here is refused as the view
 * refuses it.
 * @module
 */
import type { GetPromptRequest, GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { UnknownBotToolError } from '../../errors.js';
import type { Outcome } from '../relay/index.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import { finishRequest } from '../requests/index.js';
import type { SessionContext } from '../session/index.js';

/** Render skill prompt `params.name`; `notInView` is the refusal when the bots have none. */
export async function getBotPrompt(
  path: CallPath,
  bots: BotSurface,
  ctx: SessionContext,
  params: GetPromptRequest['params'],
  notInView: Error,
): Promise<GetPromptResult> {
  const started = performance.now();
  const access = ctx.session.botAccess;
  let outcome: Outcome<GetPromptResult>;
  try {
    if (!access) throw notInView;
    outcome = { ok: true, value: await bots.prompts.get(params.name, params.arguments ?? {}, access) };
  } catch (error) {
    outcome = { ok: false, error: error instanceof UnknownBotToolError ? notInView : error };
  }
  const fields = { eventType: 'prompt_get', serverName: null, toolName: params.name, input: params };
  return finishRequest(path, ctx, started, fields, outcome);
}
