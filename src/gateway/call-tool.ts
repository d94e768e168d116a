/**
 * `tools/call` (G3, G4, X4, X7): route the public name in the caller's view, relay it to
 * the owner, sanitize the result, audit the outcome. Upstream trouble (down, gone, too
 * slow) is a failed tool result; anything else refused is a JSON-RPC error.
 * @module
 */
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Route } from './aggregate.js';
import { auditRow } from './audit-request.js';
import type { CallPath } from './call-path.js';
import { type Outcome, relayRequest } from './relay-request.js';
import { MAX_CALLED_NAME, routeName } from './route-request.js';
import type { SessionContext } from './session-context.js';
import { answerFailure, type FailureAnswer } from './wire-error.js';

/** A call's result as sanitized, and whether the sanitizer changed or flagged anything. */
type Sanitized = { readonly result: CallToolResult; readonly sanitized: boolean };

const firstText = (result: CallToolResult): string | null => {
  const item = result.content.find((c) => c.type === 'text');
  return item && 'text' in item ? String(item.text).slice(0, 500) : null;
};

/** Call the tool `params.name` of the caller's view. */
export async function callTool(
  path: CallPath,
  ctx: SessionContext,
  params: CallToolRequest['params'],
): Promise<CallToolResult> {
  const started = performance.now();
  const routed = routeName(path.hub, path.views.view(ctx.session.spec), 'tool', params.name);
  const outcome = routed.ok ? await relayTool(path, ctx, routed.value, params) : routed;
  const answer: FailureAnswer = outcome.ok
    ? { kind: 'result', result: outcome.value.result }
    : answerFailure(outcome.error, true);
  const result = answer.kind === 'result' ? answer.result : null;
  path.audit?.record(
    auditRow('server', ctx.session, started, {
      eventType: 'tool_call',
      serverName: routed.ok ? routed.value.server : null,
      // A name too long to be a tool's is neither stored nor echoed.
      toolName: routed.ok ? routed.value.name : params.name.length <= MAX_CALLED_NAME ? params.name : null,
      input: params.arguments ?? {},
      output: result ?? undefined,
      success: result !== null && result.isError !== true,
      error: outcome.ok ? (result?.isError ? firstText(result) : null) : outcome.error,
      sanitized: outcome.ok && outcome.value.sanitized,
    }),
  );
  if (answer.kind === 'result') return answer.result;
  if (answer.internal !== null)
    path.log.warn({ err: answer.internal, session: ctx.session.id }, 'agent request failed');
  throw answer.error;
}

/** Relay the call to the owner under its own name; the result comes back sanitized (X4). */
async function relayTool(
  path: CallPath,
  ctx: SessionContext,
  route: Route,
  params: CallToolRequest['params'],
): Promise<Outcome<Sanitized>> {
  const relayed = await relayRequest(path, ctx, route.server, (upstream, options) =>
    upstream.callTool({ ...params, name: route.name }, options),
  );
  return relayed.ok ? { ok: true, value: path.sanitizer.result(route.server, route.name, relayed.value) } : relayed;
}
