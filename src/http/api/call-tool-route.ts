/**
 * `POST /api/servers/{name}/tools/{tool}/call` (test-tool; SPEC A1, section 7). The call
 * goes through the gateway's own path, like any agent's: an in-process session on the
 * aggregate view (`/mcp`, run-test-call.ts). So the view (allowed/denied tools), the
 * rug-pull pins, the sanitizer and the audit all apply, and the answer is the sanitized
 * `CallToolResult`; a refusal is answered from the local error the gateway attached to it
 * (the one error table), never from its text. The tool is called by its public name,
 * `{server}__{tool}`, which is refused when another server's tool maps to the same name.
 * JSON by default (`{result,durationMs}`); with `Accept: text/event-stream`, the call's
 * progress as it comes and then its answer, as server-sent events (stream-test-call.ts).
 * Whoever asked going away cancels the call upstream.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ErrorCode, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { AppConfig } from '../../config/schema.js';
import { HubError, NotInViewError, RequestEndedError, UpstreamUnavailableError } from '../../errors.js';
import type { Gateway } from '../../gateway/index.js';
import { WireError } from '../../gateway/requests/index.js';
import { toPublicName } from '../../gateway/views/index.js';
import type { Hub } from '../../hub/create-hub.js';
import { createApi, errorResponses, jsonBody, ServerToolParams } from './api-schemas.js';
import { runTestCall, TestCallFailure } from './run-test-call.js';
import { streamTestCall } from './stream-test-call.js';
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

/** A test-tool call's answer: the result and the call's duration (from sending it to its answer). */
export const CallAnswerSchema = z
  .object({
    result: CallToolResultSchema,
    durationMs: z.number().int().nonnegative().openapi({ description: 'How long the call took, in ms', example: 1240 }),
  })
  .openapi('ToolCallAnswer');

const callTool = createRoute({
  method: 'post',
  path: '/{name}/tools/{tool}/call',
  tags: ['servers'],
  summary: 'Call a tool as an agent would (test-tool): the view, pins, sanitizer and audit apply',
  request: { params: ServerToolParams, body: jsonBody(CallBodySchema) },
  description:
    'With `Accept: text/event-stream` (ranked above `application/json`) the answer is server-sent events: ' +
    '`progress` `{progress,total?,message?}` as the upstream reports them, then one `result` `{result,durationMs}` ' +
    'or `error` `{error:{code,message},status,durationMs}`. A call refused before any progress is the JSON error, ' +
    'as without the stream. Closing the request cancels the call upstream (audited as cancelled by the client).',
  responses: {
    200: {
      description: 'The result and how long the call took; a tool that failed says so with `isError: true`',
      content: {
        'application/json': { schema: CallAnswerSchema },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...errorResponses(400, 404, 413, 415, 429, 502, 503),
  },
});

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
    const call = (onProgress?: (progress: Progress) => void) =>
      runTestCall(gateway, {
        server: name,
        tool,
        publicName,
        args,
        clientInfo: testCallClient(c),
        // Whoever asked has gone (the page's Cancel, a closed curl): the call is cancelled upstream.
        signal: c.req.raw.signal,
        ...(onProgress ? { onProgress } : {}),
      });
    // Nobody reads the answer to a cancelled call; it is said plainly rather than as a failure.
    const toError = (error: unknown) =>
      c.req.raw.signal.aborted ? new RequestEndedError('client cancelled') : toHubError(error, name, tool);
    if (wantsEventStream(c.req.header('accept'))) return streamTestCall(c, call, toError) as never;
    try {
      return c.json(await call(), 200);
    } catch (error) {
      throw toError(error instanceof TestCallFailure ? error.error : error);
    }
  });
  return routes;
}

/**
 * Whether `accept` asks for the stream: it names `text/event-stream` above
 * `application/json` (which is the default, so an `Accept` naming both equally gets JSON).
 */
export function wantsEventStream(accept: string | undefined): boolean {
  const quality = (type: string) => {
    for (const part of (accept ?? '').split(',')) {
      const [media = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      if (media !== type) continue;
      const q = params.find((p) => p.startsWith('q='));
      return q === undefined ? 1 : Number(q.slice(2)) || 0;
    }
    return 0;
  };
  return quality('text/event-stream') > quality('application/json');
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

/**
 * What the gateway threw, as the API's error: the local error behind it, answered by the
 * one HTTP mapping; a tool the view does not route, as a 404 that says so; an upstream's
 * own JSON-RPC error (no local error behind it), as a 400 when it blames the arguments,
 * else as the upstream's failure.
 */
function toHubError(error: unknown, server: string, tool: string): unknown {
  if (!(error instanceof WireError)) return error;
  if (error.local instanceof NotInViewError)
    return new HubError(
      'not_found',
      `tool "${tool}" of server "${server}" is not available (unknown, denied or quarantined)`,
    );
  if (error.local) return error.local;
  if (error.code === ErrorCode.InvalidParams) return new HubError('bad_request', error.message);
  return new HubError(
    'upstream_failed',
    `calling "${tool}" on server "${server}" failed: MCP error ${error.code}: ${error.message}`,
    {
      cause: error,
    },
  );
}
