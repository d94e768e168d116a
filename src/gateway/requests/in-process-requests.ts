/**
 * The requests a caller inside the service makes of an in-process session's view (a session
 * from `gateway.attachSession`): `tools/call`, `resources/read`, `prompts/get`,
 * `completion/complete`, each on the same call-path module an agent's request takes, and
 * like an agent's refused while the service stops and tracked while it runs (so shutdown
 * and revocation end it with their reason, and the caller's abort is "cancelled by the
 * client"). A failure is the `WireError` an agent would get, with its local error attached.
 * @module
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptRequest,
  GetPromptResult,
  ReadResourceRequest,
  ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ShuttingDownError } from '../../errors.js';
import type { SessionContext } from '../session/index.js';
import { runTracked } from '../session/index.js';
import type { CallPath } from './call-path.js';
import { callTool } from './call-tool.js';
import { complete } from './complete.js';
import { getPrompt } from './get-prompt.js';
import { readResource } from './read-resource.js';

/** The in-process requests; `context.session` is an attached session of the caller's. */
export type InProcessRequests = {
  /** Call a tool of `context`'s view by its public name. */
  callTool(context: SessionContext, name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  readResource(context: SessionContext, params: ReadResourceRequest['params']): Promise<ReadResourceResult>;
  getPrompt(context: SessionContext, params: GetPromptRequest['params']): Promise<GetPromptResult>;
  complete(context: SessionContext, params: CompleteRequest['params']): Promise<CompleteResult>;
};

/** The in-process requests over `path`. */
export function createInProcessRequests(path: CallPath): InProcessRequests {
  const run = <T>(context: SessionContext, work: (ctx: SessionContext) => Promise<T>): Promise<T> => {
    if (path.stopping()) return Promise.reject(new ShuttingDownError());
    return runTracked(context.session, context.signal, (signal) => work({ ...context, signal }));
  };
  return {
    callTool: (context, name, args) =>
      run(context, (ctx) => callTool(path, ctx, { name, ...(args ? { arguments: args } : {}) })),
    readResource: (context, params) => run(context, (ctx) => readResource(path, ctx, params)),
    getPrompt: (context, params) => run(context, (ctx) => getPrompt(path, ctx, params)),
    complete: (context, params) => run(context, (ctx) => complete(path, ctx, params)),
  };
}
