/**
 * The entry of src/gateway/session/ (part `gateway-session` in docs/architecture/parts.json): what the other
 * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from
 * their imports; after a change, run it again or add the line by hand.
 * @module
 */
export { admitFleetSession, admitSession, type FleetSessionCount } from './admit-session.js';
export type { AgentChannel, AgentRequestOptions, AgentSession, SubscribedResource } from './agent-session.js';
export { lastActiveAt } from './agent-session.js';
export type { AuditFields, AuditSink } from './audit-request.js';
export { auditRow } from './audit-request.js';
export type { EndpointIdentity } from './endpoint-identity.js';
export { endpointIdentity } from './endpoint-identity.js';
export { endpointInstructions, reachedBots } from './endpoint-instructions.js';
export type {
  InProcessSessionOptions,
  OpenDeps,
  SessionOptions,
  TransportSessionOptions,
} from './open-agent-session.js';
export { attachAgentSession, endSession, openAgentSession, registerSession } from './open-agent-session.js';
export { requestLog } from './request-log.js';
export { createServersSettled } from './servers-settled.js';
export type { SessionContext } from './session-context.js';
export type { OpenSessionUpstream, SessionUpstreams } from './session-upstreams.js';
export { createSessionUpstreams } from './session-upstreams.js';
export { publishToolCalls } from './tool-call-events.js';
export {
  ANSWER_WITHIN_MS,
  closeSessions,
  endRequests,
  endSessions,
  requestsSettled,
  runTracked,
} from './track-request.js';
