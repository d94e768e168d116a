/**
 * One request of the admin to one server, made the way an agent makes it: an in-process
 * session on that server's own view (`/mcp/servers/{name}`, the upstream's names unchanged,
 * `gateway.attachSession`), whose request takes the gateway's own path (`gateway.readResource`
 * and its siblings), as a bot's calls do (issue 20). So the gateway's call path
 * applies as it does to an agent: the in-flight caps, the request timeout, the bound on the
 * answer (ADR 020), the sanitizer and the audit (`clientId` `admin`). Used by the routes that
 * read a resource, get a prompt and complete an argument; the answer's failures become the
 * API's errors here, each in one line.
 * @module
 */
import {
  type CompleteRequest,
  type CompleteResult,
  ErrorCode,
  type GetPromptRequest,
  type GetPromptResult,
  type ReadResourceRequest,
  type ReadResourceResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppConfig } from '../../config/schema.js';
import { HubError, NotInViewError, quoted, RateLimitedError, UpstreamUnavailableError } from '../../errors.js';
import type { Gateway } from '../../gateway/index.js';
import { NO_AGENT, WireError } from '../../gateway/requests/index.js';
import type { Hub } from '../../hub/create-hub.js';

/** Who the audit says made the request, and as which client. */
const CLIENT_ID = 'admin';
const CLIENT_INFO = { name: 'boternity-admin', version: '0.1.0' };

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

/** The requests `ask` may make of the admin's session on the server's view. */
export type AdminAsker = {
  readResource(params: ReadResourceRequest['params']): Promise<ReadResourceResult>;
  getPrompt(params: GetPromptRequest['params']): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params']): Promise<CompleteResult>;
};

/**
 * Run `ask` on a new admin session of `server`'s view, in-process; the session ends with
 * it. Throws the API's error: 404 unknown server, 503 not connected, 409 when the server does
 * not declare `capability`, else what {@link toApiError} makes of the answer.
 */
export async function askAsAdmin<T>(
  { hub, config, gateway }: AskDeps,
  { server, capability, what }: AskOptions,
  ask: (asker: AdminAsker) => Promise<T>,
): Promise<T> {
  const status = hub.getServer(server);
  const entry = config().mcpServers[server];
  const upstream = hub.upstream(server);
  // A shared connection must be up; a per-session server opens its own for this request.
  if (entry?.scope !== 'session') {
    if (!upstream) throw new UpstreamUnavailableError(server, status.state, status.attempt);
    if (upstream.capabilities()?.[capability] === undefined) throw notOffered(server, capability);
  }
  const session = gateway.attachSession({
    spec: { kind: 'server', server },
    label: `api ${what} (${server})`,
    clientId: CLIENT_ID,
    clientInfo: CLIENT_INFO,
    channel: NO_AGENT,
  });
  const context = { session, signal: new AbortController().signal, channel: session.channel, progress: null };
  try {
    return await ask({
      readResource: (params) => gateway.readResource(context, params),
      getPrompt: (params) => gateway.getPrompt(context, params),
      complete: (params) => gateway.complete(context, params),
    });
  } catch (error) {
    throw toApiError(error, server, capability, what);
  } finally {
    await session.close();
  }
}

/** 409: the server is up but does not offer this kind of request. */
function notOffered(server: string, capability: string): HubError {
  return new HubError('conflict', `server "${server}" does not offer ${capability} (not in its capabilities)`);
}

/**
 * What the gateway threw, as the API's error, by its JSON-RPC code and the local error
 * behind it (never by its text): a name the view does not route is a 404; the upstream
 * blaming the params, a 400; a method it lacks, a 409; a cap's refusal, itself (429); a
 * timeout, 504; anything else the upstream's failure, 502. Anything not from the gateway as it is.
 */
export function toApiError(error: unknown, server: string, capability: string, what: string): unknown {
  if (!(error instanceof WireError)) return error;
  // An upstream's own error text comes as the SDK formats it, once or more ("MCP error -32602: …").
  const text = oneLine(error.message.replace(/^(MCP error -?\d+: )+/, ''));
  if (error.local instanceof NotInViewError)
    return new HubError(
      'not_found',
      `${error.local.kind} "${quoted(error.local.item)}" is not offered by server "${server}"`,
    );
  if (error.code === ErrorCode.InvalidParams) return new HubError('bad_request', `${what}: ${text}`);
  if (error.code === ErrorCode.MethodNotFound) return notOffered(server, capability);
  // Refused by an in-flight cap (ADR 022): 429, as the rate limits answer.
  if (error.local instanceof RateLimitedError) return error.local;
  if (error.code === ErrorCode.RequestTimeout)
    return new HubError('upstream_timeout', `${what} on server "${server}" timed out: ${text}`);
  return new HubError('upstream_failed', `${what} on server "${server}" failed: ${text}`, { cause: error });
}

/** Upstream text on one line, cut at {@link MAX_ERROR_TEXT} characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_ERROR_TEXT ? flat : `${flat.slice(0, MAX_ERROR_TEXT - 1)}…`;
}
