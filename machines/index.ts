/**
 * The pure statecharts of boternity and their types. The only barrel in the code base:
 * explicit named exports. Nothing here imports from src/.
 * @module
 */
export { isExhausted, nextDelayMs } from './backoff.js';
export { connectionMachine } from './connection-machine.js';
export type {
  ConnectInput,
  ConnectionContext,
  ConnectionEvent,
  ConnectionInput,
  ConnectionReport,
  DisabledReason,
  PingInput,
  WatchEvent,
  WatchInput,
} from './connection-types.js';
export { isAuthorizationError, toErrorInfo } from './error-info.js';
export { diffServers, type ServerDiff, sameSpec } from './reconcile.js';
export { SERVER_EVENT_TYPES, SERVER_STATE_EVENT_TYPES } from './server-event-types.js';
export {
  childId,
  type SupervisorContext,
  type SupervisorEvent,
  type SupervisorInput,
  serverOfChild,
  supervisorMachine,
} from './supervisor-machine.js';
export type {
  BackoffPolicy,
  CatalogCounts,
  CatalogDiff,
  CatalogKind,
  ConnectionStateName,
  ErrorInfo,
  PingResult,
  ServerEvent,
  ServerSpec,
  UpstreamHandle,
} from './types.js';
