/**
 * The stdio bridge of `bnity mcp serve --stdio` (SPEC A4): a client that launches boternity
 * gets the running service's view instead of a second supervisor. Built from SDK transports
 * only: JSON-RPC messages go both ways unchanged between a `StdioServerTransport` (the
 * client) and a `StreamableHTTPClientTransport` (the service), including the service's own
 * requests (sampling, elicitation) and the notifications of its standalone stream. A
 * session the service ends while the client is quiet is replaced by a new one, with what
 * the client set up sent again (`ResumingTransport`, ADR 024).
 * @module
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { opensModernEra } from './opens-modern-era.js';
import { PrimedTransport, readFirstMessage } from './primed-transport.js';
import { ResumingTransport } from './resuming-transport.js';

/** Options of {@link bridgeStdio}: `endpoint` is the service's `/mcp…` URL. */
export type BridgeOptions = {
  endpoint: string;
  token: string | null;
  /** One line for stderr (stdout carries MCP). */
  say(line: string): void;
};

/** Why the bridge ended, and the exit code that goes with it. */
type Ending = { code: number; reason: string; clientGone: boolean };

/** Forward MCP between stdin/stdout and the service until either side ends; resolves with the exit code. */
export async function bridgeStdio({ endpoint, token, say }: BridgeOptions): Promise<number> {
  const stdio = new StdioServerTransport();
  // The client's first message picks the era: a modern client is bridged request by request.
  // A client that leaves (or a SIGTERM) before its first message ends the bridge, exit 0.
  const leaving = new Promise<{ first: null; read: JSONRPCMessage[] }>((resolve) => {
    const leave = () => resolve({ first: null, read: [] });
    process.stdin.once('end', leave);
    process.once('SIGTERM', leave);
    process.once('SIGINT', leave);
  });
  const { first, read } = await Promise.race([readFirstMessage(stdio), leaving]);
  if (first === null) {
    await stdio.close();
    return 0;
  }
  const client = new PrimedTransport(stdio, read);
  if (opensModernEra(first)) {
    const { bridgeModern } = await import('./bridge-modern.js');
    return bridgeModern({
      endpoint,
      token,
      client,
      say,
      describe: (error) => describe(error, endpoint),
      gone: sessionGone,
      refused: (error) => httpFailure(error)?.status === 404,
    });
  }
  let finish: (ending: Ending) => void = () => undefined;
  const ended = new Promise<Ending>((resolve) => {
    finish = resolve;
  });
  let lastFailure = 'the service closed the connection';
  // A session the service ends (idle for gateway.sessionIdleMs) is replaced without the client knowing (ADR 024).
  const service = new ResumingTransport({
    open: () => openServiceTransport(endpoint, token),
    sessionGone: (error) => httpFailure(error)?.status === 404,
    onResumed: () => say(`the service ended the idle session; opened a new one (${endpoint})`),
  });

  client.onmessage = (message: JSONRPCMessage) => {
    service.send(message).catch((error: unknown) => {
      const why = describe(error, endpoint);
      // A request the service never got is answered, so the client does not wait forever.
      if (isJSONRPCRequest(message))
        void client.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: why } });
      if (!service.answered || sessionGone(error)) finish({ code: 1, reason: why, clientGone: false });
    });
  };
  service.onmessage = (message: JSONRPCMessage) => void client.send(message);
  service.onerror = (error) => {
    lastFailure = describe(error, endpoint);
    if (sessionGone(error)) finish({ code: 1, reason: lastFailure, clientGone: false });
  };
  service.onclose = () => finish({ code: 1, reason: lastFailure, clientGone: false });
  client.onerror = (error) => say(`bridge: unreadable message from the client: ${error.message}`);
  process.stdin.once('end', () => finish({ code: 0, reason: 'stdin closed', clientGone: true }));
  process.once('SIGTERM', () => finish({ code: 0, reason: 'SIGTERM', clientGone: true }));
  process.once('SIGINT', () => finish({ code: 0, reason: 'SIGINT', clientGone: true }));

  await service.start();
  await client.start();
  say(`serving ${endpoint} on stdio (the running service's view)`);
  const ending = await ended;
  // The client went away: end its session on the service too (DELETE).
  if (ending.clientGone && service.sessionId) await service.terminateSession().catch(() => undefined);
  await service.close();
  await client.close();
  if (ending.code !== 0) say(`${ending.reason}`);
  return ending.code;
}

/** A Streamable HTTP client transport to the service, for one session. */
function openServiceTransport(endpoint: string, token: string | null): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    // A restarted or stopped service ends the session: notice within a few seconds.
    reconnectionOptions: {
      initialReconnectionDelay: 250,
      maxReconnectionDelay: 2_000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 4,
    },
  });
}

/** The status and body of a refused POST: the v1 transport's error, or the v2 one's (a modern client's). */
function httpFailure(error: unknown): { status: number; body: string } | null {
  if (error instanceof StreamableHTTPError)
    return { status: error.code ?? 0, body: /Error POSTing to endpoint: (.*)$/s.exec(error.message)?.[1] ?? '' };
  const data = (error as { data?: { status?: unknown; text?: unknown } } | null)?.data;
  if (error instanceof Error && typeof data?.status === 'number')
    return { status: data.status, body: typeof data.text === 'string' ? data.text : '' };
  return null;
}

/** The JSON-RPC code of the MCP endpoint's 404 for a session it does not have. */
const SESSION_NOT_FOUND = -32001;

/** The session or the service is gone: nothing more can pass. */
function sessionGone(error: unknown): boolean {
  const failure = httpFailure(error);
  if (failure) return failure.status === 404 || failure.status === 401 || failure.status === 403;
  if (error instanceof TypeError) return true; // fetch failed: nothing listens any more
  // The SDK says it gave up reconnecting only in words (a plain Error, no class or code).
  return error instanceof Error && /Maximum reconnection attempts/.test(error.message);
}

/** One line about a failed exchange with the service, with the service's own message when it sent one. */
function describe(error: unknown, endpoint: string): string {
  const failure = httpFailure(error);
  if (failure) {
    const { status, body } = failure;
    let message = body;
    let code: unknown;
    try {
      const error = (JSON.parse(body) as { error?: { code?: unknown; message?: string } }).error;
      message = error?.message ?? body;
      code = error?.code;
    } catch {
      // Not JSON: keep the text.
    }
    if (status === 401)
      return `${endpoint} refused the admin token: set BOTERNITY_ADMIN_TOKEN, or --home to the service's data directory`;
    // The service's "Session not found" is JSON-RPC -32001 (an unknown bot or server is -32602).
    if (status === 404 && code === SESSION_NOT_FOUND) return `the service ended the session (${endpoint})`;
    return `${endpoint} answered ${status}: ${message || 'no message'}`;
  }
  if (error instanceof TypeError) return `the service at ${endpoint} is gone (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}
