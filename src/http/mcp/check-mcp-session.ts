import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RpcRefusal } from '../io/index.js';

/**
 * The one answer to a session id that names no session of this endpoint and token: closed,
 * never opened, or another endpoint's or token's (X1, G3). The SDK's status and message.
 */
export const SESSION_NOT_FOUND: RpcRefusal = Object.freeze({ status: 404, code: -32001, message: 'Session not found' });

/**
 * The checks the SDK's Streamable HTTP transport makes on a request after `initialize`
 * (SPEC G1), with its statuses and messages: the session id, then the
 * `MCP-Protocol-Version` header. Null when the request may go on.
 */
export function checkMcpSession(req: IncomingMessage, sessionId: string | undefined): RpcRefusal | null {
  const given = req.headers['mcp-session-id'];
  if (sessionId === undefined) return { status: 400, code: -32000, message: 'Bad Request: Server not initialized' };
  if (!given) return { status: 400, code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' };
  if (given !== sessionId) return SESSION_NOT_FOUND;
  const version = req.headers['mcp-protocol-version'];
  if (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return null;
  const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
  return {
    status: 400,
    code: -32000,
    message: `Bad Request: Unsupported protocol version: ${version} (supported versions: ${supported})`,
  };
}
