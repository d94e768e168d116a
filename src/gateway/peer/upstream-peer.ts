/**
 * The gateway's side of every upstream connection (SPEC G6): declares sampling, elicitation
 * and roots to the upstream, and relays what the upstream asks to the agent whose call
 * caused it, on that call's own channel (so it travels on the call's stream), audited.
 * Notifications no agent receives are counted, not audited one by one (issue 17).
 * @module
 */

import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { AnswerSampling } from '../../bots/ports.js';
import {
  AgentUnsupportedError,
  PeerRequestCapError,
  SamplingRefusedError,
  UnattributedRequestError,
} from '../../errors.js';
import { carryTrace } from '../../telemetry/index.js';
import type { UpstreamPeer } from '../../upstream/types.js';
import { type CallTracker, connectionKey } from '../relay/call-tracker.js';
import { answerFailure, sanitizeElicitation, sanitizeSampling } from '../requests/index.js';
import type { AgentChannel, AgentSession } from '../session/index.js';
import { type AuditSink, auditRow } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';
import { capPending } from './cap-pending.js';
import { PEER_CAPABILITIES } from './peer-capabilities.js';
import type { SamplingBudget, SamplingHold } from './sampling-budget.js';
import type { UndeliveredTally } from './undelivered-tally.js';

/**
 * How long a relayed request may wait for the agent: the upstream that asked decides when
 * to give up (its cancellation aborts ours), so ours only guards against a lost agent.
 * An elicitation can wait on a person.
 */
const AGENT_ANSWER_TIMEOUT_MS = 60 * 60_000;

type Capability = 'sampling' | 'elicitation' | 'roots';
type SamplingParams = CreateMessageRequest['params'];

/** Who answers a request: a call's channel, or a session-bound connection's session. */
/** The agent a request goes to; `trace`: the span of the call that caused it (traces on). */
type Target = { readonly session: AgentSession; readonly channel: AgentChannel; readonly trace?: Context | null };

/** What a peer needs; `main.ts` builds the shared one, the gateway one per session-bound connection. */
export type UpstreamPeerDeps = {
  tracker: CallTracker;
  sessions: SessionRegistry;
  log: Logger;
  /** Binds the peer to one session (a `scope: "session"` connection); else requests are attributed per call. */
  fixed?: AgentSession | null;
  /** Per-server sampling budgets (X6); none: unlimited. */
  budget?: Pick<SamplingBudget, 'reserve'> | undefined;
  /** Requests and notifications from upstreams are audited (X7). */
  audit?: AuditSink | undefined;
  /** Counts the notifications no agent receives; without it they are not audited at all. */
  undelivered?: Pick<UndeliveredTally, 'count'> | undefined;
  /**
   * Who answers a server's sampling (G6): `auto` (no `sampling` set) the provider of the bot
   * whose own call (chat, workflow) caused it, else the agent; `client` the agent; `bot` the
   * provider of the bot whose session caused it (`answer`); `deny` nobody.
   */
  sampling?: { route(server: string): SamplingRoute; answer: AnswerSampling | null } | undefined;
};

/** Who answers a server's sampling: its `sampling` setting, `auto` when it has none. */
export type SamplingRoute = 'auto' | 'client' | 'bot' | 'deny';

/** Create a peer. */
export function createUpstreamPeer({
  tracker,
  sessions,
  log,
  fixed = null,
  budget,
  audit,
  undelivered,
  sampling,
}: UpstreamPeerDeps): UpstreamPeer {
  const keyOf = (server: string) => connectionKey(server, fixed?.id ?? null);
  const cap = capPending(log);
  /** `work` under the cap of pending requests of `server`'s connection; over it, the upstream gets -32000 at once. */
  const capped = <T>(server: string, method: string, work: () => Promise<T>): Promise<T> =>
    cap.run(keyOf(server), server, method, work).catch((error: unknown) => {
      if (!(error instanceof PeerRequestCapError)) throw error;
      throw answerFailure(error, false).error;
    });

  /** The agent this request belongs to, or the error that says why there is none; `capability` null: not asked of the agent. */
  const targetFor = (server: string, what: string, capability: Capability | null): Target => {
    const found = tracker.attribute(keyOf(server));
    if (found.kind === 'ambiguous') {
      throw new UnattributedRequestError(
        `boternity cannot tell which of ${found.sessions} agent sessions calling "${server}" this ${what} is for; set "scope": "session" on this server`,
      );
    }
    const target = found.kind === 'call' ? found.call.context : fixed && { session: fixed, channel: fixed.channel };
    if (!target) throw new UnattributedRequestError(`no agent session is calling "${server}" to answer this ${what}`);
    if (capability && !target.channel.clientCapabilities()?.[capability]) throw new AgentUnsupportedError(capability);
    return target;
  };

  /** Relay an upstream's request to the agent whose call caused it, and audit it (X7). */
  const toAgent = async <T>(
    server: string,
    eventType: string,
    capability: Capability | null,
    params: unknown,
    send: (target: Target) => Promise<{ value: T; tokenUsage?: number | null }>,
  ): Promise<T> => {
    const started = performance.now();
    let session: AgentSession | null = null;
    try {
      const target = targetFor(server, eventType.replace('_', ' '), capability);
      session = target.session;
      const { value, tokenUsage = null } = await send(target);
      const fields = { eventType, serverName: server, input: params, output: value, tokenUsage };
      audit?.record(auditRow('client', session, started, fields));
      return value;
    } catch (error) {
      audit?.record(auditRow('client', session, started, { eventType, serverName: server, input: params, error }));
      // The upstream gets a JSON-RPC error with a code, as an agent would give it.
      const answer = answerFailure(error, false);
      throw answer.kind === 'error' ? answer.error : error;
    }
  };
  const options = (signal: AbortSignal) => ({ signal, timeout: AGENT_ANSWER_TIMEOUT_MS });

  /** A bot's provider answers, charged to the server's budget and (by the answerer) the bot's, at its real count. */
  const byBot = (server: string, params: SamplingParams, signal: AbortSignal) =>
    toAgent(server, 'sampling_request', null, params, async ({ session }) => {
      if (!session.bot)
        throw new SamplingRefusedError(
          `server "${server}" has its sampling answered by a bot ("sampling": "bot"), but the session that caused it has no bot: call it on /mcp/bots/{slug} or with a bot's token`,
        );
      if (!sampling?.answer) throw new SamplingRefusedError(`server "${server}": no bots answer sampling here`);
      const hold: SamplingHold | null = (await budget?.reserve(server, params)) ?? null;
      try {
        const { result, usage } = await sampling.answer({
          slug: session.bot,
          server,
          params: sanitizeSampling(params),
          signal,
        });
        return { value: result, tokenUsage: hold?.settle(result, usage.totalTokens) ?? usage.totalTokens };
      } catch (error) {
        hold?.release();
        throw error;
      }
    });

  /**
   * Whether a bot's own call (its chat or a workflow) caused the request: no agent is behind
   * such a session, so by default its provider answers. Unattributable: no (the agent path
   * says why).
   */
  const causedByBot = (server: string): boolean => {
    try {
      return targetFor(server, 'sampling request', null).session.ownBot;
    } catch {
      return false;
    }
  };

  /** Relay a sampling request to whoever answers it (its `sampling` route). */
  const createMessage = (
    server: string,
    params: SamplingParams,
    signal: AbortSignal,
  ): ReturnType<UpstreamPeer['createMessage']> => {
    const route = sampling?.route(server) ?? 'client';
    if (route === 'deny') {
      const refusal = new SamplingRefusedError(
        `server "${server}" may not ask for sampling: its "sampling" setting is "deny"`,
      );
      audit?.record(
        auditRow('client', null, null, {
          eventType: 'sampling_request',
          serverName: server,
          input: params,
          error: refusal,
        }),
      );
      const answer = answerFailure(refusal, false);
      return Promise.reject(answer.error);
    }
    if (route === 'bot' || (route === 'auto' && causedByBot(server))) return byBot(server, params, signal);
    return toAgent(server, 'sampling_request', 'sampling', params, async ({ channel, trace }) => {
      const hold: SamplingHold | null = (await budget?.reserve(server, params)) ?? null;
      try {
        // To the agent boternity is one server: "thisServer" or "allServers" context would
        // hand one upstream what the others said. Upstream text is untrusted (X4).
        const value = await channel.createMessage(
          carryTrace({ ...sanitizeSampling(params), includeContext: 'none' }, trace),
          options(signal),
        );
        return { value, tokenUsage: hold?.settle(value) ?? null };
      } catch (error) {
        hold?.release();
        throw error;
      }
    });
  };

  return {
    capabilities: PEER_CAPABILITIES,
    createMessage: (server, params, signal) =>
      capped(server, 'sampling/createMessage', () => createMessage(server, params, signal)),
    elicit: (server, params, signal) =>
      capped(server, 'elicitation/create', () =>
        toAgent(server, 'elicitation_request', 'elicitation', params, async ({ channel, trace }) => ({
          value: await channel.elicit(carryTrace(sanitizeElicitation(params), trace), options(signal)),
        })),
      ),
    listRoots: (server, params, signal) =>
      capped(server, 'roots/list', () =>
        toAgent(server, 'roots_request', 'roots', params ?? {}, async ({ channel, trace }) => ({
          value: await channel.listRoots(carryTrace(params ?? {}, trace), options(signal)),
        })),
      ),
    async logged(server, params) {
      // Only to the agent it belongs to: a message no call can be tied to is only counted
      // rather than reach agents who did not cause it (other tokens, other bots).
      const found = tracker.attribute(keyOf(server));
      const channel = found.kind === 'call' ? found.call.context.channel : fixed?.channel;
      if (!channel) {
        undelivered?.count(server, 'logging_message');
        return;
      }
      audit?.record(
        auditRow('client', null, null, { eventType: 'logging_message', serverName: server, input: params }),
      );
      await channel
        .notify({ method: 'notifications/message', params })
        .catch((error: unknown) => log.debug({ err: error, server }, 'logging message not delivered'));
    },
    resourceUpdated(server, uri) {
      const subscribers = sessions.subscribers(server, uri, fixed);
      if (subscribers.length === 0) {
        undelivered?.count(server, 'resource_updated');
        return;
      }
      audit?.record(
        auditRow('client', null, null, {
          eventType: 'resource_updated',
          serverName: server,
          toolName: uri,
          input: { uri },
        }),
      );
      for (const { session, publicUri } of subscribers) {
        void session.channel
          .notify({ method: 'notifications/resources/updated', params: { uri: publicUri } })
          .catch((error: unknown) => log.debug({ err: error, server }, 'resource update not delivered'));
      }
    },
  };
}
