/**
 * `POST /api/servers/{name}/tools/{tool}/call` (test-tool; SPEC A1, section 7). The call
 * goes through the gateway's own path, like any agent's: an in-process MCP session on the
 * aggregate view (`/mcp`), an SDK client on the other end of an in-memory transport. So the
 * view (allowed/denied tools), the rug-pull pins, the sanitizer and the audit all apply, and
 * the answer is the sanitized `CallToolResult`. The tool is called by its public name,
 * `{server}__{tool}`, which is refused when another server's tool maps to the same name.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AppConfig } from '../config/schema.js';
import { HubError, RateLimitedError, UpstreamUnavailableError } from '../errors.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { toPublicName } from '../gateway/public-names.js';
import type { Hub } from '../hub/create-hub.js';
import { createApi, errorResponses, jsonBody, jsonResponse, ServerToolParams } from './api-schemas.js';
import { testCallClient } from './test-call-client.js';

/** The body of a test-tool call. */
export const CallBodySchema = z
  .object({
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .openapi({ description: "The tool's arguments", example: { path: '/tmp' } }),
  })
  .strict()
  .openapi('ToolCall');

/** A test-tool call's result. */
export const CallToolResultSchema = z
  .object({
    content: z.array(z.record(z.string(), z.unknown())),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  })
  .openapi('CallToolResult', { description: 'As MCP `tools/call` answers it, after the sanitizer' });

const callTool = createRoute({
  method: 'post',
  path: '/{name}/tools/{tool}/call',
  tags: ['servers'],
  summary: 'Call a tool as an agent would (test-tool): the view, pins, sanitizer and audit apply',
  request: { params: ServerToolParams, body: jsonBody(CallBodySchema) },
  responses: {
    200: jsonResponse(
      'The result; a tool that failed says so with `isError: true`',
      z.object({ result: CallToolResultSchema }),
    ),
    ...errorResponses(400, 404, 413, 415, 429, 502, 503),
  },
});

/** Who the audit says made the call. */
const CLIENT_ID = 'admin';

/** Routes mounted at `/api/servers`. */
export function callToolRoutes({
  hub,
  config,
  gateway,
}: {
  hub: Hub;
  config: () => AppConfig;
  gateway: Gateway;
}): OpenAPIHono {
  const routes = createApi();
  routes.openapi(callTool, async (c) => {
    const { name, tool } = c.req.valid('param');
    const { arguments: args } = c.req.valid('json');
    const status = hub.getServer(name);
    const server = config().mcpServers[name];
    // A shared connection must be up; a per-session server opens its own for this call.
    if (server?.scope !== 'session' && !hub.upstream(name))
      throw new UpstreamUnavailableError(name, status.state, status.attempt);
    const publicName = uniquePublicName(hub, name, tool);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.openSession({
      transport: serverSide,
      spec: { kind: 'all' },
      label: `api test-tool ${name}/${tool}`,
      idles: false,
      clientId: CLIENT_ID,
    });
    const client = new Client(testCallClient(c));
    try {
      await client.connect(clientSide);
      const result = await client.callTool({ name: publicName, arguments: args }, undefined, {
        timeout: (server?.requestTimeoutMs ?? 60_000) + 5_000,
      });
      return c.json({ result }, 200);
    } catch (error) {
      throw toHubError(error, name, tool);
    } finally {
      await client.close();
    }
  });
  return routes;
}

/** `{server}__{tool}`, unless another server's tool has the same public name (then 409). */
function uniquePublicName(hub: Hub, server: string, tool: string): string {
  const name = toPublicName(server, tool);
  for (const other of hub.listServers()) {
    for (const item of hub.upstream(other.name)?.catalog().tools ?? []) {
      if ((other.name !== server || item.name !== tool) && toPublicName(other.name, item.name) === name) {
        throw new HubError(
          'conflict',
          `tool "${tool}" of server "${server}" shares its public name ${name} with "${item.name}" of "${other.name}": call it through /mcp/servers/${server}`,
        );
      }
    }
  }
  return name;
}

/** A protocol error from the session, as the API's error. */
function toHubError(error: unknown, server: string, tool: string): unknown {
  if (!(error instanceof McpError)) return error;
  if (error.code === ErrorCode.InvalidParams && /not available in this view/.test(error.message))
    return new HubError(
      'not_found',
      `tool "${tool}" of server "${server}" is not available (unknown, denied or quarantined)`,
    );
  if (error.code === ErrorCode.InvalidParams)
    return new HubError('bad_request', error.message.replace(/^MCP error -?\d+: /, ''));
  // Refused by an in-flight cap (ADR 022): 429, as the rate limits answer.
  const data = error.data as { scope?: unknown; retryAfterSeconds?: unknown } | undefined;
  if (data?.scope === 'in_flight' && typeof data.retryAfterSeconds === 'number')
    return new RateLimitedError(data.retryAfterSeconds, error.message.replace(/^MCP error -?\d+: /, ''));
  return new HubError('upstream_failed', `calling "${tool}" on server "${server}" failed: ${error.message}`, {
    cause: error,
  });
}
