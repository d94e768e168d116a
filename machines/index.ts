/**
 * The pure statecharts of boternity and their types. The only barrel in the code base:
 * explicit named exports. Nothing here imports from src/.
 * @module
 */
export { toErrorInfo } from './error-info.js';
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
