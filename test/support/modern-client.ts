/**
 * The SDK's v2 client (MCP 2026-07-28 and 2025-11-25) against a boternity endpoint: pinned
 * to the modern era, `auto` (probe with `server/discover`, fall back to `initialize`) or
 * `legacy`.
 * @module
 */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TEST_TOKEN } from './test-service.js';

/** The modern revision this client pins. */
export const MODERN = '2026-07-28';

/** Which era the client asks for. */
export type Era = 'modern' | 'auto' | 'legacy';

/** Connect a v2 client to `url` with the admin token (or `token`). */
export async function connectV2Client(
  url: string,
  era: Era,
  { token = TEST_TOKEN, ...options }: ClientOptions & { token?: string } = {},
): Promise<Client> {
  const client = new Client(
    { name: `v2-test-${era}`, version: '1.0.0' },
    { ...options, versionNegotiation: { mode: era === 'modern' ? { pin: MODERN } : era } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** The `_meta` envelope of a 2026-07-28 request that declares `capabilities`. */
export const envelope = (capabilities: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

/** POST one hand-made 2026-07-28 JSON-RPC message to `url` (for the errors an SDK client never provokes). */
export function postModern(
  url: string,
  body: unknown,
  { token = TEST_TOKEN, headers = {} }: { token?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}
