/**
 * `tools/call` (G3, G4, X4, X7): route the public name in the caller's view, relay it to
 * the owner, sanitize the result, audit the outcome. Upstream trouble (down, gone, too
 * slow) is a failed tool result; anything else refused is a JSON-RPC error. A name outside
 * the view goes to the bot tools, when the session is served them. In search mode the
 * meta-tools are served first; `call_tool` comes back here with the real name (issue 24).
 * @module
 */
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NotInViewError } from '../../errors.js';
import { stepSpan, traceIdOf } from '../../telemetry/index.js';
import { botsFor, serveBotTool } from '../bots/index.js';
import { andThen, relayRouted } from '../relay/index.js';
import type { SessionContext } from '../session/index.js';
import { auditRow, requestLog } from '../session/index.js';
import type { Route } from '../views/index.js';
import type { CallPath } from './call-path.js';
import { isLargeRequest } from './large-request.js';
import { MAX_CALLED_NAME, routeName } from './route-request.js';
import { serveMetaTool } from './serve-meta-tool.js';
import { answerFailure, type FailureAnswer } from './wire-error.js';

const nameOf = (route: Route): string => (route.shown ? `${route.name} as ${route.shown}` : route.name);

const firstText = (result: CallToolResult): string | null => {
  const item = result.content.find((c) => c.type === 'text');
  return item && 'text' in item ? String(item.text).slice(0, 500) : null;
};

/**
 * Call the tool `params.name` of the caller's view. `direct`: asked by `call_tool`, so the name
 * is a tool's even where it is a meta-tool's (an upstream tool the meta-tool hides).
 */
export async function callTool(
  path: CallPath,
  ctx: SessionContext,
  params: CallToolRequest['params'],
  direct = false,
): Promise<CallToolResult> {
  const meta = direct ? null : await serveMetaTool(path, ctx, params, (inner) => callTool(path, ctx, inner, true));
  if (meta) return meta;
  const started = performance.now();
  const served = path.views.view(ctx.session.spec);
  const routed = routeName(path.hub, served, 'tool', params.name);
  // Not the view's: a bot tool served to this caller, if the bots have it (G8).
  if (!routed.ok && routed.error instanceof NotInViewError) {
    const bots = botsFor(path, ctx.session, served, 'tools', params.name);
    if (bots) return serveBotTool(path, bots, ctx, params, routed.error);
  }
  const relayed = await relayRouted(
    path,
    ctx,
    routed,
    (upstream, options, route) => upstream.callTool({ ...params, name: route.name }, options),
    isLargeRequest(params.arguments),
    (route) => route.name,
  );
  // The result is upstream text the model will read (X4).
  // Traces on: the sanitizer is a step of the request's span when it changed the result or took
  // time (issue 21); off, it is called as it is.
  const outcome = andThen(relayed, ({ route, answer }) =>
    ctx.trace
      ? stepSpan(
          path.tracer,
          ctx.trace,
          'boternity.sanitize',
          () => path.sanitizer.result(route.server, route.name, answer, () => requestLog(path, ctx)),
          (done) => done.sanitized,
        )
      : path.sanitizer.result(route.server, route.name, answer),
  );
  const answer: FailureAnswer = outcome.ok
    ? { kind: 'result', result: outcome.value.result }
    : answerFailure(outcome.error, true);
  const result = answer.kind === 'result' ? answer.result : null;
  path.audit?.commit(
    auditRow('server', ctx.session, started, {
      eventType: 'tool_call',
      serverName: routed.ok ? routed.value.server : null,
      // A name too long to be a tool's is neither stored nor echoed.
      // A tool the operator renamed is audited with both names (issue 24).
      toolName: routed.ok ? nameOf(routed.value) : params.name.length <= MAX_CALLED_NAME ? params.name : null,
      input: params.arguments ?? {},
      output: result ?? undefined,
      success: result !== null && result.isError !== true,
      error: outcome.ok ? (result?.isError ? firstText(result) : null) : outcome.error,
      sanitized: outcome.ok && outcome.value.sanitized,
      traceId: ctx.trace ? traceIdOf(ctx.trace) : null,
    }),
  );
  // Seed 004: every tool call at debug, with its outcome and duration, never its arguments
  // (built only when debug is on: this is the call path).
  if (path.log.isLevelEnabled('debug'))
    requestLog(path, ctx).debug(
      {
        server: routed.ok ? routed.value.server : null,
        tool: routed.ok ? routed.value.name : null,
        session: ctx.session.id,
        durationMs: Math.round(performance.now() - started),
        outcome: result === null ? 'failed' : result.isError === true ? 'error' : 'ok',
      },
      'tool call',
    );
  if (answer.kind === 'result') return answer.result;
  if (answer.internal !== null)
    requestLog(path, ctx).warn({ err: answer.internal, session: ctx.session.id }, 'agent request failed');
  throw answer.error;
}
