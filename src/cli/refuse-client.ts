/**
 * A stdio client whose view cannot be served (`--bot` or `--server` naming nothing) is told
 * why in the protocol, not only on stderr: every request it sends — `server/discover` (MCP
 * 2026-07-28), `initialize`, or whatever follows a failed probe on the same connection — is
 * answered with a JSON-RPC error carrying the reason, which is what clients display. Exiting
 * before answering showed them only "Connection closed" or a failed version negotiation.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link refuseClient}. */
export type RefuseClientOptions = {
  /** Start the transport (false: its owner already did). */
  start?: boolean;
};

/**
 * Answer each request on `transport` with an error carrying `reason`; resolves once an
 * `initialize` has been answered (a client falls back to it after a failed probe, so nothing
 * comes after it) or the client has gone.
 */
export function refuseClient(transport: Transport, reason: string, { start = true }: RefuseClientOptions = {}) {
  return new Promise<void>((resolve) => {
    transport.onmessage = (message) => {
      if (!isJSONRPCRequest(message)) return;
      const answer = {
        jsonrpc: '2.0' as const,
        id: message.id,
        error: { code: ErrorCode.InvalidParams, message: reason },
      };
      transport.send(answer).then(
        () => {
          if (message.method === 'initialize') resolve();
        },
        () => resolve(),
      );
    };
    transport.onclose = () => resolve();
    transport.onerror = () => undefined;
    if (start) transport.start().catch(() => resolve());
  });
}
