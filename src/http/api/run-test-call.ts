/**
 * One test-tool call (SPEC A1) made the way an agent makes it, in-process (issue 20): an
 * admin session with no transport on the aggregate view (`/mcp`, `gateway.attachSession`),
 * whose call takes the gateway's own path (`gateway.callTool`), as a bot's do. So the view,
 * the pins, the sanitizer, the in-flight caps, the request timeout and the audit all apply.
 * Progress is asked for only when someone listens (the gateway then relays a
 * `progressToken` upstream like an agent's, ADR 026); aborting `signal` is the client's own
 * cancel: the gateway cancels the upstream call and audits it as cancelled by the client.
 * @module
 */
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../../gateway/index.js';
import { NO_AGENT } from '../../gateway/requests/index.js';

/** Who the audit says made the call. */
const CLIENT_ID = 'admin';

/** What {@link runTestCall} needs to know. */
export type TestCallOptions = {
  /** The server and its tool's own name (for the session's label). */
  readonly server: string;
  readonly tool: string;
  /** The tool's public name on the aggregate view, `{server}__{tool}`. */
  readonly publicName: string;
  readonly args: Record<string, unknown>;
  /** The MCP client the session announces: its `clientName` tells the UI's test calls from the CLI's (`test-call-client.ts`). */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** Aborted when whoever asked has gone: the call is cancelled upstream. */
  readonly signal: AbortSignal;
  /** Each progress notification of this call, in order; none asked for when absent. */
  readonly onProgress?: (progress: Progress) => void;
};

/** The result and how long the call took, from sending it to its answer, in whole ms. */
export type TestCallAnswer = { readonly result: CallToolResult; readonly durationMs: number };

/** A failed call, with how long it ran before failing. */
export class TestCallFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly durationMs: number,
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/**
 * Make the call; throws a {@link TestCallFailure} with what the gateway threw inside (a
 * `WireError` with its local error, or a `HubError` refusal such as the service stopping).
 */
export async function runTestCall(gateway: Gateway, options: TestCallOptions): Promise<TestCallAnswer> {
  const { server, tool, publicName, args, signal, onProgress, clientInfo } = options;
  const session = gateway.attachSession({
    spec: { kind: 'all' },
    label: `api test-tool ${server}/${tool}`,
    clientId: CLIENT_ID,
    clientInfo,
    channel: NO_AGENT,
  });
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const progress = onProgress ? async (news: Progress) => onProgress(news) : null;
    const result = await gateway.callTool({ session, signal, channel: session.channel, progress }, publicName, args);
    return { result, durationMs: took() };
  } catch (error) {
    throw new TestCallFailure(error, took());
  } finally {
    await session.close();
  }
}
