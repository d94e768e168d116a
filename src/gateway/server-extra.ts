import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK hands a downstream request handler: its signal, session, and a way to reach the agent. */
export type ServerExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
