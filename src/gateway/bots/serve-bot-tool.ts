/**
 * `tools/call` of a bot tool (G8, X7): run by the bots' port for the session's caller, with
 * the request's signal, and MCP progress when the caller gave a progress token (a chat
 * reports as it works); audited like any call. A name the bots do not know here is refused
 * as the view refuses it.
 * @module
 */
import type { CallToolRequest, CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { UnknownBotToolError } from '../../errors.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import { wireErrorOf } from '../requests/index.js';
import type { SessionContext } from '../session/index.js';
import { auditRow, requestLog } from '../session/index.js';

/** Call bot tool `params.name` for `ctx`'s caller; `notInView` is thrown when the bots have no such tool here. */
export async function serveBotTool(
  path: CallPath,
  bots: BotSurface,
  ctx: SessionContext,
  params: CallToolRequest['params'],
  notInView: Error,
): Promise<CallToolResult> {
  const started = performance.now();
  const access = ctx.session.botAccess;
  const send = ctx.progress;
  // Progress is sent in order, without holding the chat up; a lost notification is not an error.
  const onProgress = send
    ? (progress: Progress) => {
        void send(progress).catch((error: unknown) =>
          requestLog(path, ctx).debug({ err: error, session: ctx.session.id }, 'progress not delivered'),
        );
      }
    : undefined;
  const fields = { eventType: 'tool_call', serverName: null, toolName: params.name, input: params.arguments ?? {} };
  try {
    if (!access) throw notInView;
    const result = await bots.tools.call(params.name, params.arguments ?? {}, {
      ...access,
      signal: ctx.signal,
      ...(onProgress ? { onProgress } : {}),
    });
    path.audit?.commit(
      auditRow('server', ctx.session, started, { ...fields, output: result, success: result.isError !== true }),
    );
    return result;
  } catch (error) {
    const refused = error instanceof UnknownBotToolError ? notInView : error;
    path.audit?.commit(auditRow('server', ctx.session, started, { ...fields, error: refused }));
    throw wireErrorOf(path, ctx, refused);
  }
}
