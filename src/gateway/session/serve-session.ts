/**
 * A session served by the v1 SDK `Server` (MCP 2025-11-25 and older, over Streamable HTTP
 * or stdio): one table from each method to its call-path module, which gets the request's
 * params checked against the SDK's schema and a {@link SessionContext} built from `extra`.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
  type ServerResult,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import { ShuttingDownError } from '../../errors.js';
import { callToolParams } from '../../protocol/parse-message.js';
import { type ServedRequest, serveTraced } from '../../telemetry/index.js';
import type { CallPath } from '../requests/index.js';
import {
  answerFailure,
  callTool,
  complete,
  getPrompt,
  invalidParams,
  listItems,
  type ParamsSchema,
  readResource,
  setLevel,
  subscribeResource,
  unsubscribeResource,
  WireError,
} from '../requests/index.js';
import type { AgentSession } from './agent-session.js';
import { auditRow } from './audit-request.js';
import { contextOf, type ServerExtra } from './sdk-channel.js';
import type { SessionContext } from './session-context.js';
import { runTracked } from './track-request.js';

type Handler = (params: unknown, extra: ServerExtra) => Promise<ServerResult>;

/** Answer `session`'s requests on `server`, for the kinds of capability it declares. */
export function serveSession(
  server: Server,
  session: AgentSession,
  path: CallPath,
  capabilities: ServerCapabilities,
): void {
  // Each request is tracked while it runs, so shutdown and revocation can end it with their reason.
  const run = async <T>(
    extra: ServerExtra,
    trace: Context | null,
    work: (ctx: SessionContext) => Promise<T>,
  ): Promise<T> => {
    if (path.stopping()) throw answerFailure(new ShuttingDownError(), false).error;
    return runTracked(session, extra.signal, (signal) => work(contextOf(session, extra, signal, trace)));
  };
  const { tracer } = path;
  // Params are checked here, not by the SDK, whose refusal is a -32603 with a dump of every
  // zod issue: the agent gets -32602 and one line. So every method is served from this table.
  const handlers = new Map<string, Handler>();
  const on = <P>(
    method: string,
    schema: ParamsSchema<P>,
    work: (params: P, ctx: SessionContext) => Promise<ServerResult>,
    refused?: (error: WireError) => void,
  ) => {
    const handle = async (params: unknown, extra: ServerExtra, trace: Context | null) => {
      const parsed = schema.safeParse(params);
      if (parsed.success) return run(extra, trace, (ctx) => work(parsed.data, ctx));
      const error = invalidParams(method, parsed.error);
      refused?.(error);
      throw error;
    };
    // Tracing on (issue 21): each request is a SERVER span, continuing the agent's trace.
    handlers.set(
      method,
      tracer
        ? (params, extra) =>
            serveTraced(tracer, servedRequest(method, params, extra, session), (trace) => handle(params, extra, trace))
        : (params, extra) => handle(params, extra, null),
    );
  };
  if (capabilities.tools) {
    on('tools/list', ListToolsRequestSchema.shape.params, async (_p, ctx) => ({
      tools: await listItems(path, ctx, 'tools'),
    }));
    on(
      'tools/call',
      callToolParams,
      (params, ctx) => callTool(path, ctx, params),
      (error) => path.audit?.commit(auditRow('server', session, null, { eventType: 'tool_call', error })),
    );
  }
  if (capabilities.resources) {
    on('resources/list', ListResourcesRequestSchema.shape.params, async (_p, ctx) => ({
      resources: await listItems(path, ctx, 'resources'),
    }));
    on('resources/templates/list', ListResourceTemplatesRequestSchema.shape.params, async (_p, ctx) => ({
      resourceTemplates: await listItems(path, ctx, 'resourceTemplates'),
    }));
    on('resources/read', ReadResourceRequestSchema.shape.params, (params, ctx) => readResource(path, ctx, params));
    on('resources/subscribe', SubscribeRequestSchema.shape.params, (params, ctx) =>
      subscribeResource(path, ctx, params),
    );
    on('resources/unsubscribe', UnsubscribeRequestSchema.shape.params, (params, ctx) =>
      unsubscribeResource(path, ctx, params),
    );
  }
  if (capabilities.prompts) {
    on('prompts/list', ListPromptsRequestSchema.shape.params, async (_p, ctx) => ({
      prompts: await listItems(path, ctx, 'prompts'),
    }));
    on('prompts/get', GetPromptRequestSchema.shape.params, (params, ctx) => getPrompt(path, ctx, params));
  }
  if (capabilities.completions) {
    on('completion/complete', CompleteRequestSchema.shape.params, (params, ctx) => complete(path, ctx, params));
  }
  if (capabilities.logging) {
    // The SDK answers logging/setLevel itself when it declares logging: ours relays it upstream.
    server.removeRequestHandler('logging/setLevel');
    on('logging/setLevel', SetLevelRequestSchema.shape.params, async (params, ctx) => {
      const started = performance.now();
      const answer = await setLevel(path, ctx, params);
      path.audit?.commit(
        auditRow('server', session, started, { eventType: 'set_level', serverName: null, input: params }),
      );
      return answer;
    });
  }
  // The SDK answers ping itself: ours answers the same, and audits it (X7: every MCP event).
  server.removeRequestHandler('ping');
  on('ping', PingRequestSchema.shape.params, async () => {
    path.audit?.record(auditRow('server', session, null, { eventType: 'ping', serverName: null, input: null }));
    return {};
  });
  server.fallbackRequestHandler = async (request, extra) => {
    const handler = handlers.get(request.method);
    if (!handler) throw new WireError(ErrorCode.MethodNotFound, 'Method not found');
    return handler(request.params, extra);
  };
  // The agent's roots are its own: only its own upstream connections hear that they changed.
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    path.audit?.record(
      auditRow('server', session, null, { eventType: 'roots_list_changed', serverName: null, input: null }),
    );
    await Promise.allSettled(path.upstreams.openOf(session).map((upstream) => upstream.rootsChanged()));
  });
}

/** What the SERVER span of a request says: its method and params, the HTTP headers it came with, who asks. */
function servedRequest(method: string, params: unknown, extra: ServerExtra, session: AgentSession): ServedRequest {
  return {
    method,
    params,
    headers: extra.requestInfo?.headers,
    sessionId: extra.sessionId ?? session.id,
    requestId: extra.requestId,
    clientId: session.clientId,
    bot: session.bot,
  };
}
