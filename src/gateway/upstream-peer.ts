/**
 * The gateway's side of every upstream client (SPEC G6): declares sampling, elicitation
 * and roots to the upstream, and relays what the upstream asks to the agent session whose
 * call caused it, through that call's own handler (so it travels on the call's stream).
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { AuditEntry } from '../storage/audit-writer.js';
import type { UpstreamPeer } from '../upstream/types.js';
import type { CallContext, CallTracker } from './call-tracker.js';
import type { GatewaySession } from './gateway-session.js';
import { WireError } from './relay-request.js';
import type { SamplingBudget, SamplingHold } from './sampling-budget.js';
import { sanitizeElicitation, sanitizeSampling } from './sanitize-requests.js';

/** Where notifications that belong to no call go. */
export type PeerRouting = {
  /** Sessions whose view includes `server` (logging without a call). */
  sessionsViewing(server: string): GatewaySession[];
  /** Deliver `resources/updated` for an upstream URI to the sessions subscribed to it. */
  resourceUpdated(server: string, uri: string, fixed: GatewaySession | null): void;
};

/**
 * How long a relayed request may wait for the agent: the upstream that asked decides when
 * to give up (its cancellation aborts ours), so ours only guards against a lost agent.
 * An elicitation can wait on a person.
 */
const AGENT_ANSWER_TIMEOUT_MS = 60 * 60_000;

const CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

type Capability = 'sampling' | 'elicitation' | 'roots';

/**
 * Create the peer. `fixed` binds it to one session (a `scope: "session"` connection);
 * otherwise the connection is shared and requests are attributed per call.
 */
export function createUpstreamPeer({
  tracker,
  routing,
  log,
  fixed = null,
  budget,
  audit,
}: {
  tracker: CallTracker;
  routing: PeerRouting;
  log: Logger;
  fixed?: GatewaySession | null;
  /** Per-server sampling budgets (X6); none: unlimited. */
  budget?: Pick<SamplingBudget, 'reserve'> | undefined;
  /** Sampling requests are audited (X7). */
  audit?: { record(entry: AuditEntry): void } | undefined;
}): UpstreamPeer {
  const keyOf = (server: string) => (fixed ? `${server}#${fixed.id}` : server);

  /** The call this request belongs to, or an MCP error that says why there is none. */
  const callFor = (server: string, what: string, capability: Capability): CallContext | GatewaySession => {
    const found = tracker.attribute(keyOf(server));
    if (found.kind === 'ambiguous') {
      throw new WireError(
        ErrorCode.InternalError,
        `boternity cannot tell which of ${found.sessions} agent sessions calling "${server}" this ${what} is for; set "scope": "session" on this server`,
      );
    }
    const target = found.kind === 'call' ? found.call : fixed;
    if (!target)
      throw new WireError(ErrorCode.InternalError, `no agent session is calling "${server}" to answer this ${what}`);
    const session = 'session' in target ? target.session : target;
    if (!session.server.getClientCapabilities()?.[capability]) {
      throw new WireError(ErrorCode.MethodNotFound, `the agent session does not support ${capability}`);
    }
    return target;
  };

  /** Relay an upstream's request to the agent whose call caused it, and audit it (X7). */
  const toAgent = async <T>(
    server: string,
    eventType: string,
    capability: Capability,
    params: unknown,
    signal: AbortSignal,
    send: (target: CallContext | GatewaySession, options: { signal: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> => {
    const started = performance.now();
    let session: GatewaySession | null = null;
    const record = (output: unknown, error: unknown) =>
      audit?.record({
        direction: 'client',
        eventType,
        serverName: server,
        botId: session?.spec.kind === 'bot' ? session.spec.slug : null,
        clientId: session?.clientId ?? null,
        input: params,
        output,
        durationMs: Math.round(performance.now() - started),
        success: error === null,
        error: error === null ? null : error instanceof Error ? error.message : String(error),
      });
    try {
      const target = callFor(server, eventType.replace('_', ' '), capability);
      session = 'extra' in target ? target.session : target;
      const result = await send(target, { signal, timeout: AGENT_ANSWER_TIMEOUT_MS });
      record(result, null);
      return result;
    } catch (error) {
      record(undefined, error);
      throw error;
    }
  };

  return {
    capabilities: CAPABILITIES,
    attach(server: string, client: Client) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
        const started = performance.now();
        const record = (session: GatewaySession | null, output: unknown, error: unknown, tokens: number | null) =>
          audit?.record({
            direction: 'client',
            eventType: 'sampling_request',
            serverName: server,
            botId: session?.spec.kind === 'bot' ? session.spec.slug : null,
            clientId: session?.clientId ?? null,
            input: request.params,
            output,
            durationMs: Math.round(performance.now() - started),
            success: error === null,
            error: error === null ? null : error instanceof Error ? error.message : String(error),
            tokenUsage: tokens,
          });
        let session: GatewaySession | null = null;
        let hold: SamplingHold | null = null;
        try {
          const target = callFor(server, 'sampling request', 'sampling');
          session = 'extra' in target ? target.session : target;
          hold = budget?.reserve(server, request.params) ?? null;
          const schema = request.params.tools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema;
          // To the agent boternity is one server: "thisServer" or "allServers" context would
          // hand one upstream what the others said. Upstream text is untrusted (X4).
          const params = { ...sanitizeSampling(request.params), includeContext: 'none' as const };
          const options = { signal: extra.signal, timeout: AGENT_ANSWER_TIMEOUT_MS };
          const result =
            'extra' in target
              ? await target.extra.sendRequest({ method: 'sampling/createMessage', params }, schema, options)
              : await target.server.createMessage(params, options);
          const tokens = hold?.settle(result) ?? null;
          record(session, result, null, tokens);
          return result;
        } catch (error) {
          hold?.release();
          record(session, undefined, error, null);
          throw error;
        }
      });
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        toAgent(server, 'elicitation_request', 'elicitation', request.params, extra.signal, (target, options) =>
          'extra' in target
            ? target.extra.sendRequest(
                { method: 'elicitation/create', params: sanitizeElicitation(request.params) },
                ElicitResultSchema,
                options,
              )
            : target.server.elicitInput(sanitizeElicitation(request.params), options),
        ),
      );
      client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
        toAgent(server, 'roots_request', 'roots', request.params ?? {}, extra.signal, (target, options) =>
          'extra' in target
            ? target.extra.sendRequest(
                { method: 'roots/list', params: request.params ?? {} },
                ListRootsResultSchema,
                options,
              )
            : target.server.listRoots(request.params, options),
        ),
      );
      client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
        audit?.record({
          direction: 'client',
          eventType: 'logging_message',
          serverName: server,
          input: notification.params,
          success: true,
        });
        // Only to the session it belongs to: a message no call can be tied to stays in the
        // audit rather than reach agents who did not cause it (other tokens, other bots).
        const found = tracker.attribute(keyOf(server));
        const sessions = found.kind === 'call' ? [found.call] : fixed ? [fixed] : [];
        for (const target of sessions) {
          const send =
            'extra' in target
              ? target.extra.sendNotification(notification)
              : target.server.sendLoggingMessage(notification.params);
          await send.catch((error: unknown) => log.debug({ err: error, server }, 'logging message not delivered'));
        }
      });
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        audit?.record({
          direction: 'client',
          eventType: 'resource_updated',
          serverName: server,
          toolName: notification.params.uri,
          input: notification.params,
          success: true,
        });
        routing.resourceUpdated(server, notification.params.uri, fixed);
      });
    },
  };
}
