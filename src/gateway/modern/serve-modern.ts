/**
 * One MCP 2026-07-28 request served by a v2 SDK `Server` (ADR 013): the same call-path
 * modules as a 2025 session, with a {@link SessionContext} built per request from its
 * `_meta` (client capabilities, log level, progress token) and run as an input flow, so an
 * upstream's sampling, elicitation or roots request comes back as `input_required`. Lists
 * carry honest cache hints; params are checked as on a 2025 session (-32602, one line);
 * `server/discover` is the v2 server's own answer from the capabilities, server info and
 * instructions it is built with. Tracing on, each request is a SERVER span (trace-modern.ts).
 * @module
 */
import {
  type CallToolRequest,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  inputRequired,
  LOG_LEVEL_META_KEY,
  Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { Context } from '@opentelemetry/api';
import { ShuttingDownError } from '../../errors.js';
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
} from '../requests/index.js';
import type { AgentSession, EndpointIdentity, SessionContext } from '../session/index.js';
import { runTracked } from '../session/index.js';
import type { InputFlows, RoundSink } from './input-flows.js';
import { modernContext, quietContext } from './modern-channel.js';
import { serveModernTraced } from './trace-modern.js';

/** Where a modern request runs: the view session of its endpoint, token and client. */
export type ModernTarget = {
  readonly path: CallPath;
  readonly session: AgentSession;
  readonly flows: InputFlows;
  readonly identity: EndpointIdentity;
  /** `private` when the view depends on the token (every endpoint but one server's). */
  readonly cacheScope: 'public' | 'private';
};

const CACHEABLE = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
] as const;

type ListKind = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';
const LISTS: ReadonlyArray<readonly [string, ListKind, ParamsSchema<unknown>]> = [
  ['tools/list', 'tools', ListToolsRequestSchema.shape.params],
  ['resources/list', 'resources', ListResourcesRequestSchema.shape.params],
  ['resources/templates/list', 'resourceTemplates', ListResourceTemplatesRequestSchema.shape.params],
  ['prompts/list', 'prompts', ListPromptsRequestSchema.shape.params],
];

/** Params handed to the handler as they came, to be checked there (see `createModernServer`). */
const AS_SENT: StandardSchemaV1<unknown> = {
  '~standard': { version: 1, vendor: 'boternity', validate: (value) => ({ value }) },
};

/** This request's mid-call notifications: progress under its own token, or none without one. */
function roundSink(ctx: ServerContext): RoundSink {
  const token = ctx.mcpReq._meta?.progressToken;
  return {
    notify(notification) {
      if (notification.method !== 'notifications/progress') return ctx.mcpReq.notify(notification);
      if (token === undefined) return Promise.resolve();
      return ctx.mcpReq.notify({ ...notification, params: { ...notification.params, progressToken: token } });
    },
  };
}

/** A draining service takes no new request, modern or not (the retry of a flow included). */
function refuseWhenStopping(path: CallPath): void {
  if (path.stopping()) throw answerFailure(new ShuttingDownError(), false).error;
}

/**
 * Run `work` as this request's flow (or the flow its `requestState` names): its result, or
 * the `input_required` result that asks the agent for what an upstream asked.
 */
async function withInput<T>(
  target: ModernTarget,
  ctx: ServerContext,
  trace: Context | null,
  work: (context: SessionContext) => Promise<T>,
): Promise<T> {
  const { session, flows, path } = target;
  refuseWhenStopping(path);
  const owner = `${ctx.mcpReq.method} ${session.label} ${session.owner}`;
  const round = { sink: roundSink(ctx), signal: ctx.mcpReq.signal };
  const state = ctx.mcpReq.requestState();
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const answer =
    typeof state === 'string'
      ? await flows.resume(owner, state, ctx.mcpReq.inputResponses ?? {}, round)
      : await flows.start(
          owner,
          // Tracked from its first round to its outcome: shutdown and revocation end it with their reason.
          (asker, flowSignal) =>
            runTracked(session, flowSignal, (signal) =>
              work(
                modernContext(
                  session,
                  {
                    capabilities: envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
                    logLevel: (envelope[LOG_LEVEL_META_KEY] as LoggingLevel | undefined) ?? null,
                    progress: ctx.mcpReq._meta?.progressToken !== undefined,
                  },
                  asker,
                  signal,
                  trace,
                ),
              ),
            ),
          round,
        );
  if (answer.kind === 'done') return answer.value as T;
  return inputRequired({ inputRequests: answer.requests as never, requestState: answer.state }) as T;
}

/**
 * A v2 server answering one modern request of `target`'s view. The call path speaks the v1
 * SDK's types and the handlers the v2 SDK's: both describe the same JSON, so the results
 * and params cross between the two type families with casts (`as never`), nowhere else.
 */
export function createModernServer(target: ModernTarget): Server {
  const { path, session, identity, cacheScope } = target;
  const { capabilities } = identity;
  const server = new Server(identity.serverInfo, {
    capabilities: capabilities as never,
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
    // A view changes when an upstream connects, drops or edits its lists, at no time known
    // in advance: nothing may be reused (ttlMs 0), and only by this caller unless the view
    // is the same for every token.
    cacheHints: Object.fromEntries(CACHEABLE.map((method) => [method, { ttlMs: 0, cacheScope }])),
  });
  // Params are checked by the v1 SDK's schemas here, as on a 2025 session: the v2 SDK's own
  // check answers -32603 with its zod issues as JSON. Its 3-argument form hands them over as sent.
  // Tracing on (issue 21): each request is a SERVER span, as on a 2025 session.
  const on = <P>(
    method: string,
    schema: ParamsSchema<P>,
    work: (params: P, ctx: ServerContext, trace: Context | null) => Promise<unknown>,
  ) =>
    server.setRequestHandler(
      method,
      { params: AS_SENT },
      (params, ctx) =>
        serveModernTraced(path.tracer, session, { method, params, ctx }, async (trace) => {
          const parsed = schema.safeParse(params);
          if (!parsed.success) throw invalidParams(method, parsed.error);
          return work(parsed.data, ctx, trace);
        }) as never,
    );
  for (const [method, kind, schema] of LISTS) {
    const wanted =
      kind === 'tools' ? capabilities.tools : kind === 'prompts' ? capabilities.prompts : capabilities.resources;
    if (!wanted) continue;
    on(method, schema, async (_params, ctx, trace) => {
      refuseWhenStopping(path);
      const items = await runTracked(session, ctx.mcpReq.signal, (signal) =>
        listItems(path, quietContext(session, signal, trace), kind),
      );
      return { [kind]: items };
    });
  }
  if (capabilities.tools) {
    // The v2 server checks a tools/call itself, before any handler (-32602 with its issues).
    server.setRequestHandler(
      'tools/call',
      (request, ctx) =>
        serveModernTraced(path.tracer, session, { method: 'tools/call', params: request.params, ctx }, (trace) =>
          withInput(target, ctx, trace, (context) =>
            callTool(path, context, request.params as CallToolRequest['params']),
          ),
        ) as never,
    );
  }
  if (capabilities.resources) {
    on('resources/read', ReadResourceRequestSchema.shape.params, (params, ctx, trace) =>
      withInput(target, ctx, trace, (context) => readResource(path, context, params)),
    );
  }
  if (capabilities.prompts) {
    on('prompts/get', GetPromptRequestSchema.shape.params, (params, ctx, trace) =>
      withInput(target, ctx, trace, (context) => getPrompt(path, context, params)),
    );
  }
  if (capabilities.completions) {
    on('completion/complete', CompleteRequestSchema.shape.params, (params, ctx, trace) =>
      withInput(target, ctx, trace, (context) => complete(path, context, params)),
    );
  }
  return server;
}
