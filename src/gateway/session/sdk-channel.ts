/**
 * The v1 SDK's side of a session: an agent channel over its `Server` (for what belongs to
 * no request) and a {@link SessionContext} from a request handler's `extra` (for what
 * belongs to that request, so it travels on that request's own stream).
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CreateMessageRequest,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  type ElicitRequest,
  ElicitResultSchema,
  type ListRootsRequest,
  ListRootsResultSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { AgentChannel, AgentRequestOptions, AgentSession } from './agent-session.js';
import type { SessionContext } from './session-context.js';

/** What the SDK hands a downstream request handler. */
export type ServerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The session's channel outside any request. */
export function serverChannel(server: Server): AgentChannel {
  return {
    clientCapabilities: () => server.getClientCapabilities(),
    createMessage: (params, options) => server.createMessage(params, options),
    elicit: (params, options) => server.elicitInput(params, options),
    listRoots: (params, options) => server.listRoots(params, options),
    notify: (notification) => server.notification(notification),
  };
}

/** One request's channel; a class, so a request costs one object and no closures. */
class RequestChannel implements AgentChannel {
  constructor(
    private readonly extra: ServerExtra,
    private readonly session: AgentChannel,
  ) {}

  clientCapabilities() {
    return this.session.clientCapabilities();
  }

  createMessage(params: CreateMessageRequest['params'], options: AgentRequestOptions) {
    const schema = params.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
    return this.extra.sendRequest({ method: 'sampling/createMessage', params }, schema, options);
  }

  elicit(params: ElicitRequest['params'], options: AgentRequestOptions) {
    return this.extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema, options);
  }

  listRoots(params: ListRootsRequest['params'], options: AgentRequestOptions) {
    return this.extra.sendRequest({ method: 'roots/list', params: params ?? {} }, ListRootsResultSchema, options);
  }

  notify(notification: ServerNotification) {
    return this.extra.sendNotification(notification);
  }
}

/**
 * The context of one request `extra` of `session`, under `signal` (its own: see track-request.ts);
 * `trace`: its span's context when tracing is on.
 */
export function contextOf(
  session: AgentSession,
  extra: ServerExtra,
  signal: AbortSignal,
  trace: Context | null = null,
): SessionContext {
  const channel = new RequestChannel(extra, session.channel);
  const token = extra._meta?.progressToken;
  return {
    session,
    signal,
    channel,
    trace,
    progress:
      token === undefined
        ? null
        : (progress) =>
            channel.notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } }),
  };
}
