/**
 * A session served by the v1 SDK `Server` (MCP 2025-11-25 and older, over Streamable HTTP
 * or stdio): one table from each method to its call-path module, which gets a
 * {@link SessionContext} built from the handler's `extra`.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestParamsSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentSession } from './agent-session.js';
import { auditRow } from './audit-request.js';
import type { CallPath } from './call-path.js';
import { callTool } from './call-tool.js';
import { complete } from './complete.js';
import { getPrompt } from './get-prompt.js';
import { listItems } from './list-items.js';
import { readResource } from './read-resource.js';
import { contextOf, type ServerExtra } from './sdk-channel.js';
import type { SessionContext } from './session-context.js';
import { setLevel } from './set-level.js';
import { subscribeResource, unsubscribeResource } from './subscribe-resource.js';
import { runTracked, ShuttingDownError } from './track-request.js';
import { answerFailure, WireError } from './wire-error.js';

/** Answer `session`'s requests on `server`, for the kinds of capability it declares. */
export function serveSession(
  server: Server,
  session: AgentSession,
  path: CallPath,
  capabilities: ServerCapabilities,
): void {
  // Each request is tracked while it runs, so shutdown and revocation can end it with their reason.
  const run = async <T>(extra: ServerExtra, work: (ctx: SessionContext) => Promise<T>): Promise<T> => {
    if (path.stopping()) throw answerFailure(new ShuttingDownError(), false).error;
    return runTracked(session, extra.signal, (signal) => work(contextOf(session, extra, signal)));
  };
  if (capabilities.tools) {
    server.setRequestHandler(ListToolsRequestSchema, (_r, extra) =>
      run(extra, async (ctx) => ({ tools: await listItems(path, ctx, 'tools') })),
    );
  }
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (_r, extra) =>
      run(extra, async (ctx) => ({ resources: await listItems(path, ctx, 'resources') })),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (_r, extra) =>
      run(extra, async (ctx) => ({ resourceTemplates: await listItems(path, ctx, 'resourceTemplates') })),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (r, extra) =>
      run(extra, (ctx) => readResource(path, ctx, r.params)),
    );
    server.setRequestHandler(SubscribeRequestSchema, (r, extra) =>
      run(extra, (ctx) => subscribeResource(path, ctx, r.params)),
    );
    server.setRequestHandler(UnsubscribeRequestSchema, (r, extra) =>
      run(extra, (ctx) => unsubscribeResource(path, ctx, r.params)),
    );
  }
  if (capabilities.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, (_r, extra) =>
      run(extra, async (ctx) => ({ prompts: await listItems(path, ctx, 'prompts') })),
    );
    server.setRequestHandler(GetPromptRequestSchema, (r, extra) => run(extra, (ctx) => getPrompt(path, ctx, r.params)));
  }
  if (capabilities.completions) {
    server.setRequestHandler(CompleteRequestSchema, (r, extra) => run(extra, (ctx) => complete(path, ctx, r.params)));
  }
  if (capabilities.logging) {
    server.setRequestHandler(SetLevelRequestSchema, (r, extra) => run(extra, (ctx) => setLevel(path, ctx, r.params)));
  }
  // `tools/call` params are checked here, not by the SDK, whose refusal is a -32603 with a
  // dump of every zod issue: the agent gets -32602 and one line.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== 'tools/call' || !capabilities.tools) {
      throw new WireError(ErrorCode.MethodNotFound, 'Method not found');
    }
    const parsed = CallToolRequestParamsSchema.safeParse(request.params);
    if (parsed.success) return run(extra, (ctx) => callTool(path, ctx, parsed.data));
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    const refusal = new WireError(ErrorCode.InvalidParams, `invalid tools/call params: ${where}${issue?.message}`);
    path.audit?.commit(auditRow('server', session, null, { eventType: 'tool_call', error: refusal }));
    throw refusal;
  };
  // The agent's roots are its own: only its own upstream connections hear that they changed.
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    await Promise.allSettled(path.upstreams.openOf(session).map((upstream) => upstream.rootsChanged()));
  });
}
