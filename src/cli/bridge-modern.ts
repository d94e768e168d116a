/**
 * The stdio bridge for an MCP 2026-07-28 client (ADR 013): each message the client sends
 * is POSTed on its own by the v2 SDK's Streamable HTTP client transport, which derives the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers from the message; answers,
 * `input_required` results and `subscriptions/listen` streams come back unchanged. There
 * is no session to end: the bridge stops when the client or the service goes away.
 * @module
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { refuseClient } from './refuse-client.js';

/** What the modern bridge needs: `client` is the stdio side, primed with what it read. */
export type ModernBridgeOptions = {
  endpoint: string;
  token: string | null;
  client: Transport;
  say(line: string): void;
  /** One line about a failed exchange. */
  describe(error: unknown): string;
  /** Whether the service is gone for good after `error`. */
  gone(error: unknown): boolean;
  /** Whether `error` refused the view itself (a bot or server that does not exist). */
  refused(error: unknown): boolean;
};

/** Forward a modern client's messages to the service until either side ends; resolves with the exit code. */
export async function bridgeModern({
  endpoint,
  token,
  client,
  say,
  describe,
  gone,
  refused,
}: ModernBridgeOptions): Promise<number> {
  const service = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  let finish: (code: number, reason: string) => void = () => undefined;
  const ended = new Promise<{ code: number; reason: string }>((resolve) => {
    finish = (code, reason) => resolve({ code, reason });
  });
  let refusing = false;
  const failed = (error: unknown) => {
    if (!gone(error) || refusing) return;
    if (!refused(error)) return finish(1, describe(error));
    // The view does not exist (404): a client that probed with server/discover falls back to
    // initialize on the same connection, and is told the same reason there before the bridge ends.
    refusing = true;
    const stdinEnd = new Promise((resolve) => process.stdin.once('end', resolve));
    void Promise.race([refuseClient(client, describe(error), { start: false }), stdinEnd]).then(() =>
      finish(1, describe(error)),
    );
  };
  client.onmessage = (message: JSONRPCMessage) => {
    service.send(message as never).catch((error: unknown) => {
      // A request the service never answered is answered here, so the client does not wait forever.
      if (isJSONRPCRequest(message))
        void client.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: describe(error) } });
      failed(error);
    });
  };
  service.onmessage = (message) => void client.send(message as JSONRPCMessage);
  service.onerror = failed;
  client.onclose = () => finish(0, 'stdin closed');
  process.once('SIGTERM', () => finish(0, 'SIGTERM'));
  process.once('SIGINT', () => finish(0, 'SIGINT'));
  await service.start();
  await client.start();
  say(`serving ${endpoint} on stdio (the running service's view, MCP 2026-07-28)`);
  const { code, reason } = await ended;
  await service.close();
  await client.close();
  if (code !== 0) say(reason);
  return code;
}
