/**
 * The MCP methods a gateway session answers (SPEC G2–G4): lists come from the session's
 * view; every other request is routed to the upstream that owns the item.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { HubError, UpstreamUnavailableError } from '../errors.js';
import type { AggregatedView } from './aggregate.js';
import { type AuditSink, startAudit } from './audit-request.js';
import type { GatewaySanitizer } from './gateway-sanitizer.js';
import type { GatewaySession } from './gateway-session.js';
import { type RelayDeps, relayRequest, toWireError, WireError } from './relay-request.js';
import type { UpstreamAction } from './resource-subscriptions.js';
import { sanitizeUpstreamText } from './sanitize-requests.js';
import type { ServerExtra } from './server-extra.js';

/** What the handlers need from the gateway. */
export type HandlerDeps = RelayDeps & {
  /** The session's current view (recomputed from live catalogs). */
  view(session: GatewaySession): AggregatedView;
  /**
   * For a name the view cannot route: the server it would belong to, when that server is
   * in the session's view but not connected, as the error that says so (G4).
   */
  unavailableOwner(session: GatewaySession, publicName: string): UpstreamUnavailableError | null;
  /** Count a session's (un)subscription; says whether the upstream must be told. */
  subscriptionChange(session: GatewaySession, server: string, uri: string, change: 'add' | 'remove'): UpstreamAction;
  /** Descriptions and results from upstreams pass it (X4). */
  sanitizer: GatewaySanitizer;
  /** Every agent request is audited (X7); none in tests that do not care. */
  audit?: AuditSink | undefined;
  /** Where failures that are our own are logged (the agent only gets `internal error`). */
  log: Logger;
  /** Relay `logging/setLevel` to every upstream in the session's view. */
  setLevel(session: GatewaySession, level: string, extra: ServerExtra): Promise<void>;
};

const firstText = (result: CallToolResult): string | null => {
  const item = result.content.find((c) => c.type === 'text');
  return item && 'text' in item ? String(item.text).slice(0, 500) : null;
};

const notInView = (what: string, name: string) =>
  new WireError(ErrorCode.InvalidParams, `${what} "${name}" is not available in this view`);

/** Register the handlers of `session` on its SDK server. */
export function registerSessionHandlers(server: Server, session: GatewaySession, deps: HandlerDeps): void {
  const view = () => deps.view(session);
  const fail = (error: unknown): never => {
    const wire = toWireError(error);
    if (wire.cause !== undefined) deps.log.warn({ err: wire.cause, session: session.id }, 'agent request failed');
    throw wire;
  };
  /** Relay to the owner and audit it (X7) as `event` on `item`. */
  const relay = async <T>(
    extra: ServerExtra,
    owner: string,
    run: Parameters<typeof relayRequest<T>>[4],
    audited: { event: string; item: string; input: unknown },
  ): Promise<T> => {
    const finish = startAudit(deps.audit, session);
    const base = { eventType: audited.event, serverName: owner, toolName: audited.item, input: audited.input };
    try {
      const result = await relayRequest(deps, session, extra, owner, run);
      finish({ ...base, output: result, success: true });
      return result;
    } catch (error) {
      finish({ ...base, success: false, error });
      return fail(error);
    }
  };

  const clean = deps.sanitizer;
  /** Audit a list answered from the view (X7): what was listed, by hash. */
  const listed = <T>(eventType: string, items: T[]): T[] => {
    startAudit(deps.audit, session)({ eventType, output: items, success: true });
    return items;
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed('tools_list', clean.tools(view().tools)) }));
  const callTool = async (
    request: CallToolRequest,
    extra: ServerExtra,
    audit: { server: string | null; tool: string; sanitized: boolean },
  ): Promise<CallToolResult> => {
    const route = view().tool(request.params.name);
    if (route) {
      audit.server = route.server;
      audit.tool = route.name;
    }
    if (!route) {
      const down = deps.unavailableOwner(session, request.params.name);
      if (down) return { isError: true, content: [{ type: 'text', text: down.message }] };
      throw notInView('tool', request.params.name);
    }
    try {
      const params = { ...request.params, name: route.name };
      const raw = (await relayRequest(deps, session, extra, route.server, (client, options) =>
        client.callTool(params, undefined, options),
      )) as CallToolResult;
      const safe = clean.result(route.server, route.name, raw);
      audit.sanitized = safe.sanitized;
      return safe.result;
    } catch (error) {
      // An upstream that is down or went away is a failed call, not a protocol error (G4).
      // (UpstreamLostError and a session connection that cannot open carry `upstream_failed`.)
      const unusable =
        error instanceof UpstreamUnavailableError || (error instanceof HubError && error.code === 'upstream_failed');
      if (unusable) {
        return { isError: true, content: [{ type: 'text', text: error.message }] };
      }
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        const timeout = deps.config(route.server)?.requestTimeoutMs;
        return {
          isError: true,
          content: [{ type: 'text', text: `server "${route.server}" did not answer within ${timeout} ms` }],
        };
      }
      return fail(error);
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const finish = startAudit(deps.audit, session);
    const audit = { server: null as string | null, tool: request.params.name, sanitized: false };
    const record = (result: CallToolResult | null, error: unknown) =>
      finish({
        eventType: 'tool_call',
        serverName: audit.server,
        toolName: audit.tool,
        input: request.params.arguments ?? {},
        output: result ?? undefined,
        success: error === null && result?.isError !== true,
        error: error ?? (result?.isError ? firstText(result) : null),
        sanitized: audit.sanitized,
      });
    try {
      const result = await callTool(request, extra, audit);
      record(result, null);
      return result;
    } catch (error) {
      record(null, error);
      throw error;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: listed('resources_list', clean.resources(view().resources)),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: listed('resource_templates_list', clean.resources(view().resourceTemplates)),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const route = view().resource(request.params.uri);
    if (!route) throw notInView('resource', request.params.uri);
    const result = await relay(
      extra,
      route.server,
      (client, options) => client.readResource({ ...request.params, uri: route.uri }, options),
      { event: 'resource_read', item: request.params.uri, input: request.params },
    );
    const current = view();
    const safe = clean.resourceResult(route.server, result);
    return { ...safe, contents: safe.contents.map((c) => ({ ...c, uri: current.publicUri(route.server, c.uri) })) };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const route = view().resource(request.params.uri);
    if (!route) throw notInView('resource', request.params.uri);
    if (deps.subscriptionChange(session, route.server, route.uri, 'add') !== 'none') {
      await relay(extra, route.server, (client, options) => client.subscribeResource({ uri: route.uri }, options), {
        event: 'resource_subscribe',
        item: request.params.uri,
        input: request.params,
      });
    }
    session.subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
    const route = view().resource(request.params.uri);
    session.subscriptions.delete(request.params.uri);
    if (route && deps.subscriptionChange(session, route.server, route.uri, 'remove') !== 'none') {
      await relay(extra, route.server, (client, options) => client.unsubscribeResource({ uri: route.uri }, options), {
        event: 'resource_unsubscribe',
        item: request.params.uri,
        input: request.params,
      });
    }
    return {};
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: listed('prompts_list', clean.prompts(view().prompts)),
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const route = view().prompt(request.params.name);
    if (!route) {
      const down = deps.unavailableOwner(session, request.params.name);
      throw down ? toWireError(down) : notInView('prompt', request.params.name);
    }
    const expanded = await relay(
      extra,
      route.server,
      (client, options) => client.getPrompt({ ...request.params, name: route.name }, options),
      { event: 'prompt_get', item: route.name, input: request.params },
    );
    return clean.promptResult(route.server, route.name, expanded);
  });

  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const ref = request.params.ref;
    const current = view();
    const route =
      ref.type === 'ref/prompt'
        ? (() => {
            const r = current.prompt(ref.name);
            return r && { server: r.server, ref: { ...ref, name: r.name } };
          })()
        : (() => {
            const r = current.template(ref.uri) ?? current.resource(ref.uri);
            return r && { server: r.server, ref: { ...ref, uri: 'uriTemplate' in r ? r.uriTemplate : r.uri } };
          })();
    if (!route)
      throw notInView(
        ref.type === 'ref/prompt' ? 'prompt' : 'resource',
        ref.type === 'ref/prompt' ? ref.name : ref.uri,
      );
    const completed = await relay(
      extra,
      route.server,
      (client, options) => client.complete({ ...request.params, ref: route.ref }, options),
      { event: 'completion', item: ref.type === 'ref/prompt' ? ref.name : ref.uri, input: request.params },
    );
    // Completion values are upstream text the agent may show or send on (X4).
    const values = completed.completion.values.map((v) => sanitizeUpstreamText(v, 500));
    return { ...completed, completion: { ...completed.completion, values } };
  });

  server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
    session.loggingLevel = request.params.level;
    await deps.setLevel(session, request.params.level, extra);
    return {};
  });
}
