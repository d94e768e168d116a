/**
 * One request of the admin to one server, made the way an agent makes it: an in-process MCP
 * session on that server's own view (`/mcp/servers/{name}`, the upstream's names unchanged),
 * an SDK client on the other end of an in-memory transport. So the gateway's call path
 * applies as it does to an agent: the in-flight caps, the request timeout, the bound on the
 * answer (ADR 020), the sanitizer and the audit (`clientId` `admin`). Used by the routes that
 * read a resource, get a prompt and complete an argument; the answer's failures become the
 * API's errors here, each in one line.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { AppConfig } from '../config/schema.js';
import { HubError, RateLimitedError, UpstreamUnavailableError } from '../errors.js';
import type { Gateway } from '../gateway/create-gateway.js';
import type { Hub } from '../hub/create-hub.js';

/** Who the audit says made the request. */
const CLIENT_ID = 'admin';

/** The longest upstream error text passed on: an upstream may answer with a page of it. */
const MAX_ERROR_TEXT = 300;

/** What asking needs. */
export type AskDeps = { hub: Hub; config: () => AppConfig; gateway: Gateway };

/** What is asked: of which server, the capability it must declare, and for the audit's label. */
export type AskOptions = {
  server: string;
  capability: keyof ServerCapabilities & ('resources' | 'prompts' | 'completions');
  /** What the request is, for the session's label and the messages: `read demo://a`. */
  what: string;
};

/**
 * Run `ask` with a client of a new admin session on `server`'s view; the session ends with
 * it. Throws the API's error: 404 unknown server, 503 not connected, 409 when the server does
 * not declare `capability`, else what {@link toApiError} makes of the answer.
 */
export async function askAsAdmin<T>(
  { hub, config, gateway }: AskDeps,
  { server, capability, what }: AskOptions,
  ask: (client: Client, options: { timeout: number }) => Promise<T>,
): Promise<T> {
  const status = hub.getServer(server);
  const entry = config().mcpServers[server];
  const upstream = hub.upstream(server);
  // A shared connection must be up; a per-session server opens its own for this request.
  if (entry?.scope !== 'session') {
    if (!upstream) throw new UpstreamUnavailableError(server, status.state, status.attempt);
    if (upstream.capabilities()?.[capability] === undefined) throw notOffered(server, capability);
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.openSession({
    transport: serverSide,
    spec: { kind: 'server', server },
    label: `api ${what} (${server})`,
    idles: false,
    clientId: CLIENT_ID,
  });
  const client = new Client({ name: 'boternity-admin', version: '0.1.0' });
  try {
    await client.connect(clientSide);
    return await ask(client, { timeout: (entry?.requestTimeoutMs ?? 60_000) + 5_000 });
  } catch (error) {
    throw toApiError(error, server, capability, what);
  } finally {
    await client.close();
  }
}

/** 409: the server is up but does not offer this kind of request. */
function notOffered(server: string, capability: string): HubError {
  return new HubError('conflict', `server "${server}" does not offer ${capability} (not in its capabilities)`);
}

/** A protocol error from the session, as the API's error; anything else as it is. */
export function toApiError(error: unknown, server: string, capability: string, what: string): unknown {
  if (!(error instanceof McpError)) return error;
  const text = oneLine(error.message.replace(/^(MCP error -?\d+: )+/, ''));
  if (error.code === ErrorCode.InvalidParams && / is not available in this view$/.test(text))
    return new HubError(
      'not_found',
      `${text.replace(/ is not available in this view$/, '')} is not offered by server "${server}"`,
    );
  if (error.code === ErrorCode.InvalidParams) return new HubError('bad_request', `${what}: ${text}`);
  if (error.code === ErrorCode.MethodNotFound) return notOffered(server, capability);
  // Refused by an in-flight cap (ADR 022): 429, as the rate limits answer.
  const data = error.data as { scope?: unknown; retryAfterSeconds?: unknown } | undefined;
  if (data?.scope === 'in_flight' && typeof data.retryAfterSeconds === 'number')
    return new RateLimitedError(data.retryAfterSeconds, text);
  if (error.code === ErrorCode.RequestTimeout)
    return new HubError('upstream_timeout', `${what} on server "${server}" timed out: ${text}`);
  return new HubError('upstream_failed', `${what} on server "${server}" failed: ${text}`, { cause: error });
}

/** Upstream text on one line, cut at {@link MAX_ERROR_TEXT} characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_ERROR_TEXT ? flat : `${flat.slice(0, MAX_ERROR_TEXT - 1)}…`;
}
