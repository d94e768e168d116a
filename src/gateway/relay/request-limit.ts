/**
 * How long a relayed request may take, and where that is set (issue 24). A tool call's
 * limit is the first of: the server's `timeouts.perTool[tool]` (the upstream's own name),
 * its `timeouts.callMs`, the gateway's `timeouts.callMs`, its `requestTimeoutMs`; any other
 * request has `requestTimeoutMs`. A progress notification starts a tool call's limit again
 * when `resetOnProgress` (the server's, else the gateway's; on by default). A limit set in
 * a `timeouts` section asks the upstream for progress even when the agent did not, so
 * that progress can restart it (the agent is not sent that progress). However much progress
 * comes, a request ends after `timeouts.maxTotalMs` (the server's, else the gateway's; never
 * less than its own limit): progress every 50 s must not hold a call and its place for ever.
 * @module
 */
import type { AppConfig, ServerConfig } from '../../config/schema.js';

/** A request's time limit: its length, the config path that set it, whether progress restarts it. */
export type RequestLimit = {
  readonly ms: number;
  readonly setBy: string;
  readonly resetOnProgress: boolean;
  /** Ask the upstream for progress even without the agent's progress token. */
  readonly askProgress: boolean;
  /** The most the request may take in all when progress restarts it, and where that is set. */
  readonly maxTotalMs: number;
  readonly maxTotalSetBy: string;
};

/** The limit of a request to `server`; `tool`: the upstream name of the tool called, null for other requests. */
export function requestLimit(config: AppConfig, server: string, own: ServerConfig, tool: string | null): RequestLimit {
  const at = `mcpServers.${server}`;
  const timeouts = own.timeouts;
  const total =
    timeouts?.maxTotalMs === undefined
      ? { maxTotalMs: config.timeouts.maxTotalMs, maxTotalSetBy: 'timeouts.maxTotalMs' }
      : { maxTotalMs: timeouts.maxTotalMs, maxTotalSetBy: `${at}.timeouts.maxTotalMs` };
  const fallback = {
    ms: own.requestTimeoutMs,
    setBy: `${at}.requestTimeoutMs`,
    resetOnProgress: true,
    askProgress: false,
    ...total,
  };
  if (tool === null) return fallback;
  const resetOnProgress = timeouts?.resetOnProgress ?? config.timeouts.resetOnProgress;
  const perTool = timeouts && Object.hasOwn(timeouts.perTool, tool) ? timeouts.perTool[tool] : undefined;
  const set = (ms: number, setBy: string) => ({ ms, setBy, resetOnProgress, askProgress: resetOnProgress, ...total });
  if (perTool !== undefined) return set(perTool, `${at}.timeouts.perTool.${tool}`);
  if (timeouts?.callMs !== undefined) return set(timeouts.callMs, `${at}.timeouts.callMs`);
  if (config.timeouts.callMs !== undefined) return set(config.timeouts.callMs, 'timeouts.callMs');
  return { ...fallback, resetOnProgress };
}
