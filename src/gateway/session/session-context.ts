/**
 * What every request kind on the call path takes besides its params: whose view it is,
 * who asks, and how to reach them while the request runs. It carries no SDK server, so
 * the same modules serve an MCP session, a bot calling in-process, or a stateless request.
 * @module
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { AgentChannel, AgentSession } from './agent-session.js';

/** Receives the upstream's progress for this request, in order; null when none was asked for. */
export type ProgressSink = (progress: Progress) => Promise<void>;

/** One request of one session. */
export type SessionContext = {
  /** Its view (`spec`, `naming`), its caller (`clientId`, `bot`) and what it owns. */
  readonly session: AgentSession;
  /** Aborted when the caller cancels the request. */
  readonly signal: AbortSignal;
  readonly progress: ProgressSink | null;
  /** The caller while this request runs: where an upstream's sampling, elicitation and roots go. */
  readonly channel: AgentChannel;
  /** The request's span (tracing on): its guard steps and upstream requests are its children (issue 21). */
  readonly trace?: Context | null;
};
